/**
 * The desktop preferences (docs/architecture.md, "The desktop"): keep running in the tray when the window closes, start at
 * login, and which notifications to show. Kept in the settings store, so main knows them before any
 * window exists. A stored value is untrusted (an older version, a hand edit): each field that does not
 * match falls back to its default on its own.
 *
 * Starting at login is the system's setting as much as ours: it is changed through the host first,
 * and saved only when the host did it (a refusal reaches the user with the host's reason).
 */
import { z } from 'zod';
import {
  type DesktopNotification,
  type DesktopPreferences,
  type DesktopPreferencesPatch,
  type DesktopView,
  NotificationSwitchesSchema,
  type NotificationSwitches,
} from '../../../common/ipc-contract';
import { AppError } from '../../../common/app-error';
import type { KeyValueStore, Logger } from '../shared';
import { errorMessage } from '../../../common/error-message';
import { createEmitter } from '../../../common/emitter';

/** The host's desktop integration (docs/architecture.md, "The desktop"), as the core uses it. */
export interface DesktopHost {
  /** The host has a tray icon, so "keep running in the tray when the window closes" can be offered. */
  tray: boolean;
  /** Registers Hubdesk to start at login, or unregisters it; absent where the host cannot. Throws with a sentence for the user. */
  setLaunchAtLogin?(enabled: boolean): Promise<void>;
  /** Shows a notification natively; absent: the core sends it to the renderer as `desktop.notification`. */
  notify?(notification: DesktopNotification): void;
}

export const DESKTOP_PREFERENCES_KEY = 'desktop:preferences';

/** Motion and doors opening are everyday events: told only to those who ask. */
export const DEFAULT_NOTIFICATIONS: Readonly<NotificationSwitches> = Object.freeze({
  smoke: true,
  water: true,
  tamper: true,
  motion: false,
  contact: false,
  other: true,
  hubReachability: true,
});

export const DEFAULT_DESKTOP_PREFERENCES: Readonly<DesktopPreferences> = Object.freeze({
  closeToTray: false,
  launchAtLogin: false,
  notify: DEFAULT_NOTIFICATIONS,
});

const switchSchema = (key: keyof NotificationSwitches) => z.boolean().catch(DEFAULT_NOTIFICATIONS[key]);
const StoredSchema = z.object({
  closeToTray: z.boolean().catch(DEFAULT_DESKTOP_PREFERENCES.closeToTray),
  launchAtLogin: z.boolean().catch(DEFAULT_DESKTOP_PREFERENCES.launchAtLogin),
  notify: z
    .object(Object.fromEntries(Object.keys(NotificationSwitchesSchema.shape).map((key) => [key, switchSchema(key as keyof NotificationSwitches)])))
    .catch({ ...DEFAULT_NOTIFICATIONS }),
});

/** Reads stored preferences, field by field: whatever is malformed or missing is the default. */
export function parseDesktopPreferences(stored: unknown): DesktopPreferences {
  let object: unknown = {};
  try {
    // Own data only: nothing inherited from a prototype counts as a stored field.
    if (typeof stored === 'object' && stored !== null && !Array.isArray(stored)) object = structuredClone(stored);
  } catch {
    // not plain data (a function inside): the defaults
  }
  const parsed = StoredSchema.parse(object) as DesktopPreferences;
  return { ...parsed, notify: { ...parsed.notify } };
}

export interface DesktopPreferencesStore {
  get(): DesktopPreferences;
  view(): DesktopView;
  /** Applies a change and resolves with the view as it now is. */
  set(patch: DesktopPreferencesPatch): Promise<DesktopView>;
  onChange(listener: (view: DesktopView) => void): () => void;
}

export function createDesktopPreferences(store: KeyValueStore, host: DesktopHost | undefined, logger: Logger): DesktopPreferencesStore {
  const changes = createEmitter<DesktopView>((error) => logger.error('desktop: a preferences listener failed', { error: errorMessage(error) }));
  const get = () => parseDesktopPreferences(store.get(DESKTOP_PREFERENCES_KEY));
  const view = (): DesktopView => ({
    preferences: get(),
    host: { tray: host?.tray ?? false, launchAtLogin: host?.setLaunchAtLogin !== undefined, notifications: host?.notify ? 'native' : 'browser' },
  });
  return {
    get,
    view,
    async set(patch) {
      const current = get();
      if (patch.closeToTray === true && !host?.tray)
        throw new AppError('invalid-argument', 'Hubdesk has no tray icon here, so it cannot keep running when its window closes.');
      if (patch.launchAtLogin !== undefined && patch.launchAtLogin !== current.launchAtLogin) {
        if (!host?.setLaunchAtLogin) throw new AppError('invalid-argument', 'Hubdesk cannot start at login from here; start it from the desktop app.');
        try {
          await host.setLaunchAtLogin(patch.launchAtLogin);
        } catch (error) {
          const reason = errorMessage(error);
          logger.warn('desktop: starting at login could not be changed', { enabled: patch.launchAtLogin, reason });
          throw new AppError('system-refused', `Hubdesk could not ${patch.launchAtLogin ? 'turn on' : 'turn off'} starting at login: ${reason}`);
        }
      }
      const next: DesktopPreferences = {
        closeToTray: patch.closeToTray ?? current.closeToTray,
        launchAtLogin: patch.launchAtLogin ?? current.launchAtLogin,
        notify: { ...current.notify, ...patch.notify },
      };
      store.set(DESKTOP_PREFERENCES_KEY, next);
      const changed = view();
      changes.emit(changed);
      return changed;
    },
    onChange: (listener) => changes.on(listener),
  };
}
