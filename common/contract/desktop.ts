/**
 * The IPC contract of the desktop: tray, start at login, notifications (docs/architecture.md, "The desktop"). Assembled with the
 * other domains into the one contract by common/ipc-contract.ts.
 */
import { z } from 'zod';
import { ANYONE, noArgs } from './shared';

// ---- The desktop (docs/architecture.md, "The desktop"): tray, start at login, notifications

/** Alarm capabilities a user may be told about, by kind (`alarm_smoke` → smoke; an unknown `alarm_*` → other). */
export const ALARM_KINDS = ['smoke', 'water', 'tamper', 'motion', 'contact', 'other'] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

/** Which notifications the user wants: one switch per alarm kind, and one for a hub becoming unreachable or reachable again. */
export const NotificationSwitchesSchema = z.object({
  smoke: z.boolean(),
  water: z.boolean(),
  tamper: z.boolean(),
  motion: z.boolean(),
  contact: z.boolean(),
  other: z.boolean(),
  hubReachability: z.boolean(),
});
export type NotificationSwitches = z.infer<typeof NotificationSwitchesSchema>;

export const DesktopPreferencesSchema = z.object({
  /** Closing the window keeps Hubdesk running in the tray (hosts with a tray only). */
  closeToTray: z.boolean(),
  /** The system starts Hubdesk when the user logs in (hosts that can ask for it only). */
  launchAtLogin: z.boolean(),
  notify: NotificationSwitchesSchema,
});
export type DesktopPreferences = z.infer<typeof DesktopPreferencesSchema>;

/** A change of some desktop preferences; the others stay as they are. */
export const DesktopPreferencesPatchSchema = z
  .object({
    closeToTray: z.boolean().optional(),
    launchAtLogin: z.boolean().optional(),
    notify: NotificationSwitchesSchema.partial().strict().optional(),
  })
  .strict();
export type DesktopPreferencesPatch = z.infer<typeof DesktopPreferencesPatchSchema>;

/**
 * The desktop preferences and what this host can do with them: `tray` (Electron: a tray icon, so
 * close-to-tray makes sense), `launchAtLogin` (the host can register itself with the system), and who
 * shows notifications: `native` (the host, from main) or `browser` (the renderer, with the Web
 * Notifications API, from `desktop.notification` events).
 */
export const DesktopViewSchema = z.object({
  preferences: DesktopPreferencesSchema,
  host: z.object({ tray: z.boolean(), launchAtLogin: z.boolean(), notifications: z.enum(['native', 'browser']) }),
});
export type DesktopView = z.infer<typeof DesktopViewSchema>;

/** Something the user asked to be told about, worded for a notification. */
export const DesktopNotificationSchema = z.object({
  /** Stable per subject (the same alarm, the same hub), so a newer notification replaces an older one. */
  tag: z.string().max(300),
  kind: z.enum([...ALARM_KINDS, 'hub-unreachable', 'hub-reachable']),
  title: z.string().max(200),
  body: z.string().max(500),
  hubId: z.string(),
  deviceId: z.string().optional(),
});
export type DesktopNotification = z.infer<typeof DesktopNotificationSchema>;

export const desktopInvokes = {
  'desktop.get': { args: noArgs, result: DesktopViewSchema, access: ANYONE },
  /** Changes some desktop preferences (persisted); resolves with the whole view as it now is. */
  'desktop.set': { args: z.tuple([DesktopPreferencesPatchSchema]), result: DesktopViewSchema, access: ANYONE },
} as const;

export const desktopEvents = {
  'desktop.changed': DesktopViewSchema,
  /** Sent only where the renderer shows notifications (`host.notifications` is `browser`). */
  'desktop.notification': DesktopNotificationSchema,
} as const;
