import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../../common/app-error';
import type { DesktopView } from '../../../../../common/ipc-contract';
import {
  createDesktopPreferences,
  DEFAULT_DESKTOP_PREFERENCES,
  DESKTOP_PREFERENCES_KEY,
  parseDesktopPreferences,
} from '../../../../../main/core/desktop/desktop-preferences';
import type { DesktopHost } from '../../../../../main/core/host/hubdesk-core';
import { memoryStore, recordingLogger } from '../../../../support/core-fakes';

describe('desktop preferences', () => {
  it('reads what is missing or malformed as the default, field by field', () => {
    expect(parseDesktopPreferences(undefined)).toEqual(DEFAULT_DESKTOP_PREFERENCES);
    expect(parseDesktopPreferences('nonsense')).toEqual(DEFAULT_DESKTOP_PREFERENCES);
    expect(parseDesktopPreferences([true])).toEqual(DEFAULT_DESKTOP_PREFERENCES);
    const parsed = parseDesktopPreferences({ closeToTray: true, launchAtLogin: 'yes', notify: { motion: true, smoke: 'no', __proto__: { water: false } } });
    expect(parsed).toEqual({ ...DEFAULT_DESKTOP_PREFERENCES, closeToTray: true, notify: { ...DEFAULT_DESKTOP_PREFERENCES.notify, motion: true } });
    expect(parseDesktopPreferences({ notify: null }).notify).toEqual(DEFAULT_DESKTOP_PREFERENCES.notify);
  });

  it('says what the host can do', () => {
    const none = createDesktopPreferences(memoryStore(), undefined, recordingLogger());
    expect(none.view().host).toEqual({ tray: false, launchAtLogin: false, notifications: 'browser' });
    const electron = createDesktopPreferences(memoryStore(), { tray: true, setLaunchAtLogin: async () => {}, notify: () => {} }, recordingLogger());
    expect(electron.view().host).toEqual({ tray: true, launchAtLogin: true, notifications: 'native' });
  });

  it('saves a change, keeps the other fields, and tells listeners', async () => {
    const store = memoryStore();
    const preferences = createDesktopPreferences(store, { tray: true }, recordingLogger());
    const seen: DesktopView[] = [];
    preferences.onChange((view) => seen.push(view));
    await preferences.set({ notify: { motion: true } });
    const view = await preferences.set({ closeToTray: true });
    expect(view.preferences).toEqual({ ...DEFAULT_DESKTOP_PREFERENCES, closeToTray: true, notify: { ...DEFAULT_DESKTOP_PREFERENCES.notify, motion: true } });
    expect(parseDesktopPreferences(store.get(DESKTOP_PREFERENCES_KEY))).toEqual(view.preferences);
    expect(seen.map((v) => v.preferences.closeToTray)).toEqual([false, true]);
  });

  it('asks the host to start at login, and keeps the old value with the host’s reason when it refuses', async () => {
    const calls: boolean[] = [];
    let refuse = false;
    const host: DesktopHost = {
      tray: true,
      setLaunchAtLogin: async (enabled) => {
        calls.push(enabled);
        if (refuse) throw new Error('the autostart folder is read-only');
      },
    };
    const preferences = createDesktopPreferences(memoryStore(), host, recordingLogger());
    await preferences.set({ launchAtLogin: true });
    await preferences.set({ launchAtLogin: true }); // unchanged: the host is not asked again
    refuse = true;
    const refusal = await preferences.set({ launchAtLogin: false }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'system-refused', message: 'Hubdesk could not turn off starting at login: the autostart folder is read-only' });
    expect(calls).toEqual([true, false]);
    expect(preferences.get().launchAtLogin).toBe(true);
  });

  it('refuses what the host cannot do', async () => {
    const preferences = createDesktopPreferences(memoryStore(), undefined, recordingLogger());
    await expect(preferences.set({ closeToTray: true })).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(preferences.set({ launchAtLogin: true })).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(preferences.set({ closeToTray: false, notify: { water: false } })).resolves.toMatchObject({ preferences: { notify: { water: false } } });
  });
});
