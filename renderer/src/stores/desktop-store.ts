/**
 * The desktop preferences as main keeps them (docs/architecture.md, "The desktop"): keep running in the tray, start at login,
 * which notifications to show. Loaded with `desktop.get`, kept current by `desktop.changed`; a change
 * is sent with `desktop.set` and shown once main confirms it (a refusal, e.g. the system would not add
 * Hubdesk to the login items, is kept for display).
 *
 * Where the renderer shows the notifications (the browser host: `host.notifications` is `browser`),
 * each `desktop.notification` from main becomes a Web Notification once the browser allows them; the
 * permission is asked only when the user presses the button for it (browsers require a gesture).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge, DesktopNotification, DesktopPreferencesPatch, DesktopView } from '../../../common/ipc-contract';
import { settle, type UiError } from './settle';

export type NotificationPermission = 'granted' | 'denied' | 'default' | 'unsupported';

/** The browser's notifications, as the store uses them (the Web Notifications API in the app, a fake in tests). */
export interface WebNotifications {
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  show(notification: DesktopNotification): void;
}

export interface DesktopState {
  /** null until the first view arrives. */
  view: DesktopView | null;
  /** The last change main refused, or the first read that failed. */
  error: UiError | null;
  pending: boolean;
  /** What the browser allows (meaningful when the renderer shows the notifications). */
  permission: NotificationPermission;
  load(): Promise<void>;
  set(patch: DesktopPreferencesPatch): Promise<void>;
  /** Asks the browser to allow notifications (call from a click). */
  requestPermission(): Promise<void>;
  dismissError(): void;
}

export type DesktopStore = StoreApi<DesktopState> & { dispose(): void };

export function createDesktopStore(bridge: Bridge, notifications: WebNotifications): DesktopStore {
  const store = createStore<DesktopState>()((set) => ({
    view: null,
    error: null,
    pending: false,
    permission: notifications.permission(),
    async load() {
      const result = await settle(() => bridge.desktop.get());
      set(result.ok ? { view: result.value, error: null } : { error: result.error });
    },
    async set(patch) {
      set({ pending: true, error: null });
      const result = await settle(() => bridge.desktop.set(patch));
      set(result.ok ? { view: result.value, pending: false } : { error: result.error, pending: false });
    },
    async requestPermission() {
      try {
        set({ permission: await notifications.requestPermission() });
      } catch {
        set({ permission: notifications.permission() });
      }
    },
    dismissError: () => set({ error: null }),
  }));

  const stops = [
    bridge.on('desktop.changed', (view) => store.setState({ view })),
    bridge.on('desktop.notification', (notification) => {
      const permission = notifications.permission();
      if (permission !== store.getState().permission) store.setState({ permission }); // changed in the browser's site settings
      if (permission === 'granted') notifications.show(notification);
    }),
  ];
  void store.getState().load();
  return {
    ...store,
    dispose: () => {
      for (const stop of stops) stop();
    },
  };
}
