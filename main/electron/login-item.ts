/**
 * Start at login (docs/architecture.md, "The desktop"), the core's `DesktopHost.setLaunchAtLogin`. macOS and Windows: Electron's
 * login item (`app.setLoginItemSettings`), read back to see that the system took it. Linux, where that
 * API does nothing: an XDG autostart entry, `$XDG_CONFIG_HOME/autostart/io.hubdesk.app.desktop`
 * (`~/.config` when unset), written atomically with mode 0644, removed to turn it off. Its `Exec=` is
 * the AppImage when running from one (`APPIMAGE`; the mounted executable changes every run), else the
 * executable, plus the project folder when started as `electron <project>`, quoted per the Desktop Entry
 * specification. The pure parts (paths, quoting, the entry's text) are exported for tests.
 */
import { app } from 'electron';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';

export const AUTOSTART_FILE = 'io.hubdesk.app.desktop';

/** Where the autostart entry goes: XDG_CONFIG_HOME when it is an absolute path (the spec ignores others), else ~/.config. */
export function autostartEntryPath(env: NodeJS.ProcessEnv, homeDir: string): string {
  const configured = env.XDG_CONFIG_HOME;
  const configHome = configured !== undefined && isAbsolute(configured) ? configured : join(homeDir, '.config');
  return join(configHome, 'autostart', AUTOSTART_FILE);
}

export interface LaunchCommandInput {
  env: NodeJS.ProcessEnv;
  execPath: string;
  /** `process.defaultApp`: started as `electron <project>`. */
  defaultApp: boolean;
  /** The project folder (`app.getAppPath()`), passed when defaultApp. */
  appPath: string;
}

/** What the system should run at login: the program and its arguments. */
export function launchCommand({ env, execPath, defaultApp, appPath }: LaunchCommandInput): string[] {
  const appImage = env.APPIMAGE;
  const program = appImage !== undefined && isAbsolute(appImage) ? appImage : execPath;
  return defaultApp ? [program, appPath] : [program];
}

// eslint-disable-next-line no-control-regex -- control characters cannot be written in an Exec line
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Characters that make the Desktop Entry spec require quotes around an argument. */
const RESERVED = /[\s"'\\><~|&;$*?#()`]/;

/**
 * One argument of an `Exec=` value (Desktop Entry spec, "The Exec key"): `%` doubled (field codes);
 * quoted when it holds a reserved character, with `"`, `` ` ``, `$` and `\` escaped inside the quotes;
 * then the string-value escape doubles every backslash. Refuses what cannot be written (control characters).
 */
export function quoteExecArgument(argument: string): string {
  if (argument === '' || CONTROL.test(argument)) throw new Error('This path cannot be started at login: it is empty or holds control characters.');
  const noFieldCodes = argument.replace(/%/g, '%%');
  const quoted = RESERVED.test(noFieldCodes) ? `"${noFieldCodes.replace(/["`$\\]/g, (c) => `\\${c}`)}"` : noFieldCodes;
  return quoted.replace(/\\/g, '\\\\');
}

/** The autostart entry for `command`. */
export function desktopEntryText(command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    'Name=Hubdesk',
    'Comment=Desktop companion for home-automation hubs',
    `Exec=${command.map(quoteExecArgument).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Writes or removes the autostart entry; the file is replaced in one rename, never half written. */
export async function setAutostartEntry(path: string, text: string | null): Promise<void> {
  if (text === null) {
    await rm(path, { force: true });
    return;
  }
  await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, { encoding: 'utf8', mode: 0o644, flag: 'wx' });
    await chmod(temporary, 0o644); // the umask may have taken bits away
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export interface LaunchAtLoginOptions extends LaunchCommandInput {
  platform: NodeJS.Platform;
  homeDir: string;
}

/** `DesktopHost.setLaunchAtLogin` for this platform; throws with a sentence for the user. */
export function createLaunchAtLogin(options: LaunchAtLoginOptions): (enabled: boolean) => Promise<void> {
  const command = launchCommand(options);
  if (options.platform === 'linux') {
    const path = autostartEntryPath(options.env, options.homeDir);
    return async (enabled) => {
      try {
        await setAutostartEntry(path, enabled ? desktopEntryText(command) : null);
      } catch (error) {
        const reason = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : '';
        throw new Error(`the autostart entry in ${dirname(path)} could not be ${enabled ? 'written' : 'removed'}${reason}.`, { cause: error });
      }
    };
  }
  // Windows: a registry Run entry for this program (and, in development, its project argument).
  const [path, ...args] = command;
  const target = options.platform === 'win32' ? { path, args } : {};
  return async (enabled) => {
    app.setLoginItemSettings({ openAtLogin: enabled, ...target });
    const now = app.getLoginItemSettings(target);
    if (now.openAtLogin === enabled) return;
    if (options.platform === 'darwin' && now.status === 'requires-approval') {
      throw new Error('macOS asks you to allow Hubdesk in System Settings › General › Login Items.');
    }
    throw new Error(`the system did not ${enabled ? 'add Hubdesk to' : 'remove Hubdesk from'} the apps that start at login.`);
  };
}
