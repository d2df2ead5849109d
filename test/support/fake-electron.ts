/**
 * The one fake `electron` module for unit tests of the Electron host (the runtime is not installed on
 * our machines). Use it with `vi.mock('electron', () => import('<path>/support/fake-electron'))` and
 * call `resetFakeElectron()` in `beforeEach`. It models only what the host uses, with the same names
 * and call shapes as Electron, plus `fakeElectron` knobs and helpers that play the OS or the renderer.
 */
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import { vi } from 'vitest';

/** Electron's `Event`: listeners may call preventDefault(); extra fields are the event's parameters. */
export function fakeEvent<T extends object>(params: T = {} as T): T & { preventDefault: () => void; defaultPrevented: boolean } {
  const event = {
    ...params,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

export class FakeWebFrameMain {
  constructor(
    public url: string,
    readonly processId: number,
    readonly routingId: number,
    readonly parent: FakeWebFrameMain | null = null,
  ) {}
}

class FakeSession {
  readonly webRequest = { onHeadersReceived: vi.fn() };
  readonly setPermissionRequestHandler = vi.fn();
  readonly setPermissionCheckHandler = vi.fn();
}

let nextId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  readonly session = session.defaultSession;
  readonly mainFrame = new FakeWebFrameMain('about:blank', 100 + this.id, 1);
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | undefined;
  destroyed = false;
  readonly send = vi.fn();
  readonly setWindowOpenHandler = vi.fn((handler: NonNullable<FakeWebContents['windowOpenHandler']>) => {
    this.windowOpenHandler = handler;
  });
  readonly isDestroyed = () => this.destroyed;
  /** A frame of this page other than the main one (an iframe), for sender checks. */
  childFrame(url: string): FakeWebFrameMain {
    return new FakeWebFrameMain(url, this.mainFrame.processId, 2, this.mainFrame);
  }
}

export class BrowserWindow extends EventEmitter {
  static readonly instances: BrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  destroyed = false;
  minimized = false;
  /** Whether the window is on screen: `show` shows it, `hide` hides it (closing to the tray). */
  visible = false;
  readonly show = vi.fn(() => {
    this.visible = true;
  });
  readonly hide = vi.fn(() => {
    this.visible = false;
  });
  readonly isVisible = () => this.visible;
  readonly focus = vi.fn();
  readonly restore = vi.fn(() => {
    this.minimized = false;
  });
  readonly isMinimized = () => this.minimized;
  readonly isDestroyed = () => this.destroyed;
  /** The normal (not maximised) bounds, from the constructor's options; tests move the window with `setBounds`. */
  bounds = { x: 0, y: 0, width: 800, height: 600 };
  maximized = false;
  readonly getNormalBounds = () => ({ ...this.bounds });
  readonly getBounds = () => ({ ...this.bounds });
  readonly setBounds = vi.fn((bounds: Partial<{ x: number; y: number; width: number; height: number }>) => {
    this.bounds = { ...this.bounds, ...bounds };
  });
  readonly isMaximized = () => this.maximized;
  readonly maximize = vi.fn(() => {
    this.maximized = true;
    this.emit('maximize');
  });
  readonly loadFile = vi.fn(async (path: string) => {
    this.webContents.mainFrame.url = pathToFileURL(path).href;
  });
  readonly loadURL = vi.fn(async (url: string) => {
    this.webContents.mainFrame.url = url;
  });

  constructor(readonly options: Record<string, unknown> = {}) {
    super();
    const { x, y, width, height } = options as Partial<Record<'x' | 'y' | 'width' | 'height', number>>;
    this.bounds = { x: x ?? 0, y: y ?? 0, width: width ?? 800, height: height ?? 600 };
    BrowserWindow.instances.push(this);
    app.emit('web-contents-created', fakeEvent(), this.webContents);
  }
}

const state = {
  singleInstanceLock: true,
  encryptionAvailable: true,
  linuxBackend: 'gnome_libsecret' as string,
  notificationsSupported: true,
  /** What the system does with `setLoginItemSettings`: `obey`, or `ignore` (a refusal, or macOS waiting for approval). */
  loginItems: 'obey' as 'obey' | 'ignore',
  loginItemStatus: 'not-registered' as 'not-registered' | 'enabled' | 'requires-approval' | 'not-found',
};

class FakeApp extends EventEmitter {
  readonly requestSingleInstanceLock = vi.fn(() => state.singleInstanceLock);
  readonly quit = vi.fn();
  readonly enableSandbox = vi.fn();
  readonly setAsDefaultProtocolClient = vi.fn(() => true);
  readonly setAppUserModelId = vi.fn();
  /** The login item as the system keeps it (macOS, Windows). */
  openAtLogin = false;
  readonly setLoginItemSettings = vi.fn((settings: { openAtLogin?: boolean; path?: string; args?: string[] }) => {
    if (state.loginItems === 'obey') this.openAtLogin = settings.openAtLogin ?? false;
  });
  readonly getLoginItemSettings = vi.fn((_options?: { path?: string; args?: string[] }) => ({
    openAtLogin: this.openAtLogin,
    wasOpenedAtLogin: false,
    status: state.loginItemStatus,
    executableWillLaunchAtLogin: this.openAtLogin,
    launchItems: [],
  }));
}

export const app = new FakeApp();

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, InvokeHandler>(),
  handle: vi.fn((channel: string, handler: InvokeHandler) => {
    if (ipcMain.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcMain.handlers.set(channel, handler);
  }),
  removeHandler: vi.fn((channel: string) => void ipcMain.handlers.delete(channel)),
};

export const shell = { openExternal: vi.fn(async (_url: string) => {}) };

interface FakeRect {
  x: number;
  y: number;
  width: number;
  height: number;
}
/** `screen`: the displays are `fakeElectron.displays` (work areas); `getDisplayMatching` is Electron's rule. */
const DEFAULT_DISPLAY = { workArea: { x: 0, y: 0, width: 1920, height: 1080 } };
const displays: { workArea: FakeRect }[] = [structuredClone(DEFAULT_DISPLAY)];
const overlap = (a: FakeRect, b: FakeRect) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
const distance = (a: FakeRect, b: FakeRect) => Math.hypot(a.x + a.width / 2 - (b.x + b.width / 2), a.y + a.height / 2 - (b.y + b.height / 2));
export const screen = {
  /** The display the rectangle overlaps most; the nearest one when it overlaps none. */
  getDisplayMatching: vi.fn((rect: FakeRect) => {
    const sorted = [...displays].sort(
      (a, b) => overlap(b.workArea, rect) - overlap(a.workArea, rect) || distance(a.workArea, rect) - distance(b.workArea, rect),
    );
    const found = sorted[0];
    if (!found) throw new Error('fake screen: no display');
    return found;
  }),
};

/** `powerMonitor`: tests emit 'resume', 'unlock-screen', … on it. */
export const powerMonitor = new EventEmitter();

export const session = { defaultSession: new FakeSession() };

type ProtocolHandler = (request: Request) => Response | Promise<Response>;

/** `protocol` of the default session: privileged schemes (before ready) and `handle`d schemes. */
export const protocol = {
  handlers: new Map<string, ProtocolHandler>(),
  privileged: [] as { scheme: string; privileges?: Record<string, boolean> }[],
  registerSchemesAsPrivileged: vi.fn((schemes: { scheme: string; privileges?: Record<string, boolean> }[]) => {
    protocol.privileged.push(...schemes);
  }),
  handle: vi.fn((scheme: string, handler: ProtocolHandler) => {
    if (protocol.handlers.has(scheme)) throw new Error(`The scheme has been registered: ${scheme}`);
    protocol.handlers.set(scheme, handler);
  }),
  unhandle: vi.fn((scheme: string) => void protocol.handlers.delete(scheme)),
  isProtocolHandled: vi.fn((scheme: string) => protocol.handlers.has(scheme)),
};

/** Reversible and recognisable: decrypting anything that was not produced here fails, like the real one. */
export const safeStorage = {
  isAsyncEncryptionAvailable: vi.fn(async () => state.encryptionAvailable),
  getSelectedStorageBackend: vi.fn(() => state.linuxBackend),
  encryptStringAsync: vi.fn(async (plaintext: string) => Buffer.from(`sealed:${[...plaintext].reverse().join('')}`, 'utf8')),
  decryptStringAsync: vi.fn(async (encrypted: Buffer) => {
    const text = encrypted.toString('utf8');
    if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return { shouldReEncrypt: false, result: [...text.slice('sealed:'.length)].reverse().join('') };
  }),
};

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld: vi.fn((key: string, api: unknown) => void contextBridge.exposed.set(key, api)),
};

class FakeIpcRenderer extends EventEmitter {
  readonly invoke = vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: undefined }));
}
export const ipcRenderer = new FakeIpcRenderer();

/** `nativeImage`: images remember the file and size they stand for; a path containing `missing` reads as empty. */
export class FakeNativeImage {
  constructor(
    readonly path: string,
    readonly size: { width: number; height: number },
  ) {}
  readonly isEmpty = () => this.size.width === 0;
  readonly getSize = () => ({ ...this.size });
  readonly resize = vi.fn((options: { width?: number; height?: number; quality?: string }) => {
    const width = options.width ?? options.height ?? this.size.width;
    return new FakeNativeImage(this.path, { width, height: options.height ?? width });
  });
}
export const nativeImage = {
  createFromPath: vi.fn((path: string) => new FakeNativeImage(path, path.includes('missing') ? { width: 0, height: 0 } : { width: 512, height: 512 })),
  createEmpty: vi.fn(() => new FakeNativeImage('', { width: 0, height: 0 })),
};

/** One item of a fake menu: the template's fields, and `click` as Electron calls it (a checkbox flips first). */
export interface FakeMenuItem {
  type: string;
  label: string;
  enabled: boolean;
  checked: boolean;
  click: () => void;
}

export class Menu {
  constructor(readonly items: FakeMenuItem[]) {}
  static readonly buildFromTemplate = vi.fn(
    (template: { type?: string; label?: string; enabled?: boolean; checked?: boolean; click?: (...args: unknown[]) => void }[]) =>
      new Menu(
        template.map((options) => {
          const item: FakeMenuItem = {
            type: options.type ?? 'normal',
            label: options.label ?? '',
            enabled: options.enabled ?? true,
            checked: options.checked ?? false,
            click: () => {
              if (!item.enabled) throw new Error(`fake menu: "${item.label}" is disabled and cannot be clicked`);
              if (item.type === 'checkbox') item.checked = !item.checked;
              options.click?.(item, undefined, {});
            },
          };
          return item;
        }),
      ),
  );
  /** The enabled item with this label (what the user can click). */
  item(label: string): FakeMenuItem {
    const found = this.items.find((item) => item.label === label);
    if (!found) throw new Error(`fake menu: no item "${label}" in ${JSON.stringify(this.items.map((item) => item.label))}`);
    return found;
  }
}

/** `Tray`: the icon, tooltip and context menu as last set; tests click items of `menu` and emit 'click'. */
export class Tray extends EventEmitter {
  static readonly instances: Tray[] = [];
  tooltip = '';
  menu: Menu | null = null;
  destroyed = false;
  readonly setToolTip = vi.fn((tooltip: string) => {
    this.tooltip = tooltip;
  });
  readonly setContextMenu = vi.fn((menu: Menu | null) => {
    this.menu = menu;
  });
  readonly setImage = vi.fn((image: FakeNativeImage) => {
    this.image = image;
  });
  readonly destroy = vi.fn(() => {
    this.destroyed = true;
  });
  readonly isDestroyed = () => this.destroyed;

  constructor(public image: FakeNativeImage) {
    super();
    Tray.instances.push(this);
  }
}

/** `Notification`: shown ones are recorded; tests emit 'click' on them. Supported unless `state.notificationsSupported` is false. */
export class Notification extends EventEmitter {
  static readonly instances: Notification[] = [];
  static readonly isSupported = vi.fn(() => state.notificationsSupported);
  shown = false;
  closed = false;
  readonly show = vi.fn(() => {
    this.shown = true;
  });
  readonly close = vi.fn(() => {
    this.closed = true;
    this.emit('close');
  });

  constructor(readonly options: { title?: string; body?: string } = {}) {
    super();
    Notification.instances.push(this);
  }
}

/** Knobs and helpers for tests; not part of Electron's API. */
export const fakeElectron = {
  state,
  /** The fake screen's displays (work areas); one 1920×1080 display after `resetFakeElectron`. */
  displays,
  /** Plays a renderer frame calling `ipcRenderer.invoke(channel, ...args)`. */
  async invoke(sender: FakeWebContents, frame: FakeWebFrameMain | null, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = ipcMain.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler({ sender, senderFrame: frame, processId: frame?.processId, frameId: frame?.routingId }, ...args);
  },
  /** Plays the renderer (or Chromium) requesting `url` from a scheme registered with `protocol.handle`. */
  async request(url: string, method = 'GET'): Promise<Response> {
    const scheme = url.slice(0, url.indexOf(':'));
    const handler = protocol.handlers.get(scheme);
    if (!handler) throw new Error(`No protocol handler for '${scheme}'`);
    // Not a real Request: raw URLs (with `..`, backslashes) reach the handler as a test wrote them.
    return handler({ method, url } as Request);
  },
};

export function resetFakeElectron(): void {
  state.singleInstanceLock = true;
  state.encryptionAvailable = true;
  state.linuxBackend = 'gnome_libsecret';
  state.notificationsSupported = true;
  state.loginItems = 'obey';
  state.loginItemStatus = 'not-registered';
  app.openAtLogin = false;
  BrowserWindow.instances.length = 0;
  Tray.instances.length = 0;
  Notification.instances.length = 0;
  displays.splice(0, displays.length, structuredClone(DEFAULT_DISPLAY));
  app.removeAllListeners();
  ipcRenderer.removeAllListeners();
  ipcMain.handlers.clear();
  contextBridge.exposed.clear();
  protocol.handlers.clear();
  protocol.privileged.length = 0;
  session.defaultSession = new FakeSession();
  vi.clearAllMocks();
}
