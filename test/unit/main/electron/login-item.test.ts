import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUTOSTART_FILE,
  autostartEntryPath,
  createLaunchAtLogin,
  desktopEntryText,
  launchCommand,
  quoteExecArgument,
  setAutostartEntry,
} from '../../../../main/electron/login-item';
import { app, fakeElectron, resetFakeElectron } from '../../../support/fake-electron';
import { tempDir } from '../../../support/temp-dir';

vi.mock('electron', () => import('../../../support/fake-electron'));

const PACKAGED = { env: {}, execPath: '/opt/Hubdesk/hubdesk', defaultApp: false, appPath: '/opt/Hubdesk/resources/app.asar' };

describe('autostart entry path', () => {
  it('is under XDG_CONFIG_HOME when it is absolute, else ~/.config', () => {
    expect(autostartEntryPath({ XDG_CONFIG_HOME: '/home/me/.cfg' }, '/home/me')).toBe(`/home/me/.cfg/autostart/${AUTOSTART_FILE}`);
    expect(autostartEntryPath({}, '/home/me')).toBe('/home/me/.config/autostart/io.hubdesk.app.desktop');
    expect(autostartEntryPath({ XDG_CONFIG_HOME: '' }, '/home/me')).toBe('/home/me/.config/autostart/io.hubdesk.app.desktop');
    // The base directory spec: a relative XDG path is invalid and ignored.
    expect(autostartEntryPath({ XDG_CONFIG_HOME: 'relative/cfg' }, '/home/me')).toBe('/home/me/.config/autostart/io.hubdesk.app.desktop');
  });
});

describe('launch command', () => {
  it('the packaged app: its executable alone', () => {
    expect(launchCommand(PACKAGED)).toEqual(['/opt/Hubdesk/hubdesk']);
  });

  it('an AppImage: the AppImage file, not the executable mounted for this run', () => {
    expect(launchCommand({ ...PACKAGED, env: { APPIMAGE: '/home/me/Apps/Hubdesk-0.1.0.AppImage' }, execPath: '/tmp/.mount_HubdesXYZ/hubdesk' })).toEqual([
      '/home/me/Apps/Hubdesk-0.1.0.AppImage',
    ]);
    expect(launchCommand({ ...PACKAGED, env: { APPIMAGE: 'relative.AppImage' } })).toEqual(['/opt/Hubdesk/hubdesk']);
  });

  it('development (`electron <project>`): the runtime and the project folder', () => {
    expect(launchCommand({ env: {}, execPath: '/work/node_modules/electron/dist/electron', defaultApp: true, appPath: '/work/main' })).toEqual([
      '/work/node_modules/electron/dist/electron',
      '/work/main',
    ]);
  });
});

describe('Exec quoting (Desktop Entry spec)', () => {
  it.each([
    ['/opt/Hubdesk/hubdesk', '/opt/Hubdesk/hubdesk'],
    ['/home/me/My Apps/Hubdesk.AppImage', '"/home/me/My Apps/Hubdesk.AppImage"'],
    ['/home/me/100%/hubdesk', '/home/me/100%%/hubdesk'],
    ['/home/me/a$b', '"/home/me/a\\\\$b"'],
    ['/home/me/back\\slash', '"/home/me/back\\\\\\\\slash"'],
    ['/home/me/say "hi"', '"/home/me/say \\\\"hi\\\\""'],
    ['/home/me/tick`', '"/home/me/tick\\\\`"'],
    ["/home/me/it's", '"/home/me/it\'s"'],
    ['/home/me/~x;y&z|(1)*?#<>', '"/home/me/~x;y&z|(1)*?#<>"'],
  ])('%s → %s', (argument, quoted) => {
    expect(quoteExecArgument(argument)).toBe(quoted);
  });

  it('refuses what an Exec line cannot hold', () => {
    expect(() => quoteExecArgument('/home/me/line\nbreak')).toThrow(/control characters/);
    expect(() => quoteExecArgument('')).toThrow();
  });
});

describe('desktop entry text', () => {
  it('is an autostart application entry with the quoted command', () => {
    const text = desktopEntryText(['/home/me/My Apps/Hubdesk.AppImage']);
    const lines = text.split('\n');
    expect(lines[0]).toBe('[Desktop Entry]');
    expect(lines).toContain('Type=Application');
    expect(lines).toContain('Name=Hubdesk');
    expect(lines).toContain('Exec="/home/me/My Apps/Hubdesk.AppImage"');
    expect(lines).toContain('Terminal=false');
    expect(text.endsWith('\n')).toBe(true);
    expect(desktopEntryText(['/e/electron', '/work/main']).split('\n')).toContain('Exec=/e/electron /work/main');
  });
});

describe('setAutostartEntry', () => {
  it('writes the file with mode 0644 (creating the folder), replaces it whole, and leaves no temporary file', async () => {
    const path = join(tempDir('autostart'), 'config', 'autostart', AUTOSTART_FILE);
    await setAutostartEntry(path, 'first\n');
    expect(readFileSync(path, 'utf8')).toBe('first\n');
    expect(statSync(path).mode & 0o777).toBe(0o644);
    await setAutostartEntry(path, 'second\n');
    expect(readFileSync(path, 'utf8')).toBe('second\n');
    expect(readdirSync(join(path, '..'))).toEqual([AUTOSTART_FILE]);
  });

  it('sets 0644 even over a stricter umask or an older file with other bits', async () => {
    const dir = join(tempDir('autostart'), 'autostart');
    mkdirSync(dir);
    const path = join(dir, AUTOSTART_FILE);
    writeFileSync(path, 'old');
    chmodSync(path, 0o600);
    const umask = process.umask(0o077);
    try {
      await setAutostartEntry(path, 'new');
    } finally {
      process.umask(umask);
    }
    expect(statSync(path).mode & 0o777).toBe(0o644);
  });

  it('removes the file, and removing a missing one is fine', async () => {
    const path = join(tempDir('autostart'), AUTOSTART_FILE);
    await setAutostartEntry(path, 'x');
    await setAutostartEntry(path, null);
    expect(existsSync(path)).toBe(false);
    await expect(setAutostartEntry(path, null)).resolves.toBeUndefined();
  });
});

describe('createLaunchAtLogin', () => {
  beforeEach(() => resetFakeElectron());

  it('Linux: writes and removes the XDG autostart entry under XDG_CONFIG_HOME; Electron’s login item is not used', async () => {
    const config = tempDir('xdg');
    const set = createLaunchAtLogin({
      ...PACKAGED,
      platform: 'linux',
      env: { XDG_CONFIG_HOME: config, APPIMAGE: '/home/me/Hubdesk.AppImage' },
      homeDir: '/nonexistent',
    });
    const entry = join(config, 'autostart', AUTOSTART_FILE);
    await set(true);
    expect(readFileSync(entry, 'utf8')).toContain('\nExec=/home/me/Hubdesk.AppImage\n');
    await set(false);
    expect(existsSync(entry)).toBe(false);
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it('Linux: a folder that cannot be written gives a sentence for the user', async () => {
    const config = tempDir('xdg');
    writeFileSync(join(config, 'autostart'), 'a file where the folder should be');
    const set = createLaunchAtLogin({ ...PACKAGED, platform: 'linux', env: { XDG_CONFIG_HOME: config }, homeDir: '/nonexistent' });
    await expect(set(true)).rejects.toThrow(/^the autostart entry in .+autostart could not be written \(E[A-Z]+\)\.$/);
  });

  it('macOS: sets the login item and checks that it took', async () => {
    const set = createLaunchAtLogin({ ...PACKAGED, platform: 'darwin', homeDir: '/Users/me' });
    await set(true);
    expect(app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });
    expect(app.openAtLogin).toBe(true);
    await set(false);
    expect(app.openAtLogin).toBe(false);
  });

  it('macOS: waiting for the user’s approval is said as such', async () => {
    fakeElectron.state.loginItems = 'ignore';
    fakeElectron.state.loginItemStatus = 'requires-approval';
    const set = createLaunchAtLogin({ ...PACKAGED, platform: 'darwin', homeDir: '/Users/me' });
    await expect(set(true)).rejects.toThrow('macOS asks you to allow Hubdesk in System Settings › General › Login Items.');
  });

  it('Windows: the login item names the program (and the project in development), and a refusal throws', async () => {
    const set = createLaunchAtLogin({
      env: {},
      execPath: 'C:\\electron\\electron.exe',
      defaultApp: true,
      appPath: 'C:\\work\\main',
      platform: 'win32',
      homeDir: 'C:\\Users\\me',
    });
    await set(true);
    expect(app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true, path: 'C:\\electron\\electron.exe', args: ['C:\\work\\main'] });
    expect(app.getLoginItemSettings).toHaveBeenCalledWith({ path: 'C:\\electron\\electron.exe', args: ['C:\\work\\main'] });

    fakeElectron.state.loginItems = 'ignore';
    await expect(set(false)).rejects.toThrow('the system did not remove Hubdesk from the apps that start at login.');
  });
});
