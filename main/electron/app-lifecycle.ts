/**
 * Process-level wiring: one instance, our URI scheme, deep links from the OS, and shutdown.
 * Deep links arrive in three ways — macOS `open-url`, the argv of a second instance (Windows, Linux)
 * and the argv of a cold start — and possibly before the core exists, so the listeners are installed
 * at once and links wait until `attach` is called. Every link is parsed (main/core/sign-in/deep-link.ts)
 * before anything acts on it; refused links are logged by reason only, never by content.
 */
import { type BrowserWindow, app } from 'electron';
import { resolve } from 'node:path';
import { APP_SCHEME, type DeepLinkAction, findDeepLinkInArgv, parseDeepLink } from '../core/sign-in';
import type { HubdeskCore } from '../core/host';
import type { Logger } from '../core/shared';
import { showAndFocus } from './show-window';
import { guardWebContents } from './web-contents-guard';
import { errorMessage } from '../../common/error-message';

export interface LifecycleOptions {
  argv: readonly string[];
  /** `process.defaultApp`: started as `electron <project>` rather than as the packaged app. */
  defaultApp: boolean;
  execPath: string;
  logger: Logger;
}

export interface DeepLinkTarget {
  handleOAuthCallback: HubdeskCore['handleOAuthCallback'];
  window: () => BrowserWindow | null;
}

export interface AppLifecycle {
  /** Hands deep links (the waiting ones first) to the core, and second instances to the window. */
  attach(target: DeepLinkTarget): void;
}

/** Links that arrive before the core is ready; more than a few means something is flooding us. */
const MAX_WAITING_LINKS = 4;

/** Call before `app.whenReady()`. Returns null when another instance runs: this one is quitting. */
export function startAppLifecycle({ argv, defaultApp, execPath, logger }: LifecycleOptions): AppLifecycle | null {
  if (!app.requestSingleInstanceLock()) {
    logger.info('lifecycle: Hubdesk is already running; handing over to it');
    app.quit();
    return null;
  }
  app.enableSandbox();
  registerScheme(defaultApp, execPath, argv, logger);

  let target: DeepLinkTarget | null = null;
  const waiting: DeepLinkAction[] = [];

  const act = (action: DeepLinkAction, to: DeepLinkTarget) => {
    showAndFocus(to.window());
    to.handleOAuthCallback(action.params).then(
      (outcome) => logger.info('lifecycle: sign-in redirect handled', { outcome }),
      (error: unknown) => logger.error('lifecycle: sign-in redirect failed', { error: errorMessage(error) }),
    );
  };
  const receive = (raw: unknown, via: string) => {
    const parsed = parseDeepLink(raw);
    if (!parsed.ok) {
      logger.warn('lifecycle: deep link ignored', { via, reason: parsed.reason });
      return;
    }
    if (target) return act(parsed.action, target);
    if (waiting.length >= MAX_WAITING_LINKS) waiting.shift();
    waiting.push(parsed.action);
  };

  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, logger));
  app.on('open-url', (event, url) => {
    event.preventDefault(); // we handle it; macOS need not complain
    receive(url, 'open-url');
  });
  app.on('second-instance', (_event, secondArgv) => {
    const link = findDeepLinkInArgv(secondArgv);
    if (link === undefined) showAndFocus(target?.window() ?? null);
    else receive(link, 'second-instance');
  });
  const coldStartLink = findDeepLinkInArgv(argv);
  if (coldStartLink !== undefined) receive(coldStartLink, 'argv');

  return {
    attach(next) {
      target = next;
      for (const action of waiting.splice(0)) act(action, next);
    },
  };
}

/**
 * Runs `cleanup` (dispose the core, stop the embedded backend) before the process exits. Electron does
 * not wait for promises, so the first quit is held, and quitting resumes when cleanup settles.
 */
export function registerShutdown(cleanup: () => Promise<void>, logger: Logger): void {
  let state: 'running' | 'cleaning' | 'done' = 'running';
  app.on('will-quit', (event) => {
    if (state === 'done') return;
    event.preventDefault();
    if (state === 'cleaning') return;
    state = 'cleaning';
    cleanup()
      .catch((error: unknown) => logger.error('lifecycle: cleanup failed', { error: errorMessage(error) }))
      .finally(() => {
        state = 'done';
        app.quit();
      });
  });
}

function registerScheme(defaultApp: boolean, execPath: string, argv: readonly string[], logger: Logger): void {
  // Started as `electron <project>`, the OS must be told to pass the project path too.
  const script = argv[1];
  const registered =
    defaultApp && script !== undefined ? app.setAsDefaultProtocolClient(APP_SCHEME, execPath, [resolve(script)]) : app.setAsDefaultProtocolClient(APP_SCHEME);
  if (!registered) logger.warn('lifecycle: could not register the io.hubdesk.app scheme; signing in will not return to the app');
}
