/**
 * What the user is told about while Hubdesk runs in the background (docs/architecture.md, "The desktop"): an alarm capability
 * of the open hub turning on (smoke, water, tamper; motion and doors only when they chose), and the
 * open hub becoming unreachable or reachable again. Each kind has its switch in the desktop
 * preferences. This module decides what to say; the host shows it (natively, or in the renderer with
 * the Web Notifications API).
 *
 * It reads the open hub's model (open-hub-model.ts): the same values and live states as the window.
 * A hub counts as unreachable once its live channel failed to come back on a second attempt (a single
 * dropped socket that reconnects at once is not worth a notification), or ended for a reason that a
 * retry cannot mend (access refused, gone from the account, no live updates); it is reachable again
 * when the channel is live after that. Closing the hub or signing out says nothing. The words of the
 * state are common/live-words.ts's, as in the window and the tray.
 */
import type { AlarmKind, DesktopNotification, LiveState, LiveStatus, NotificationSwitches } from '../../../common/ipc-contract';
import { liveWords } from '../../../common/live-words';
import { oneLine } from '../../../common/one-line';
import type { CapabilityChange, OpenHubView } from '../hubs';

/** Reconnect attempts that fail before the hub is said to be unreachable. */
export const UNREACHABLE_AFTER_ATTEMPTS = 2;

const ALARM_KIND_BY_CAPABILITY: Readonly<Record<string, AlarmKind>> = {
  alarm_smoke: 'smoke',
  alarm_fire: 'smoke',
  alarm_heat: 'smoke',
  alarm_co: 'smoke',
  alarm_water: 'water',
  alarm_tamper: 'tamper',
  alarm_motion: 'motion',
  alarm_contact: 'contact',
};

const ALARM_TITLE: Readonly<Record<AlarmKind, string>> = {
  smoke: 'Smoke alarm',
  water: 'Water leak',
  tamper: 'Tamper alarm',
  motion: 'Motion',
  contact: 'Opened',
  other: 'Alarm',
};

/** The kind of an alarm capability (`alarm_*`), or null for any other capability. */
export function alarmKind(capabilityId: string): AlarmKind | null {
  if (!capabilityId.startsWith('alarm_')) return null;
  return Object.hasOwn(ALARM_KIND_BY_CAPABILITY, capabilityId) ? ALARM_KIND_BY_CAPABILITY[capabilityId]! : 'other';
}

/** Live states that end the channel until the user opens the hub again, and are worth telling. */
const FAILED_FOR_GOOD: ReadonlySet<LiveState['kind']> = new Set(['hub-refused', 'hub-gone', 'no-realtime']);
/** Live states in which the user left the hub: nothing to tell, and it starts afresh when opened again. */
const LEFT: ReadonlySet<LiveState['kind']> = new Set(['closed', 'signed-out']);

export interface DesktopAlertsDeps {
  openHub: Pick<OpenHubView, 'onCapabilityChange' | 'onLive'>;
  switches(): NotificationSwitches;
  hubName(hubId: string): string | undefined;
  notify(notification: DesktopNotification): void;
}

/** Starts listening; returns the function that stops. */
export function startDesktopAlerts({ openHub, switches, hubName, notify }: DesktopAlertsDeps): () => void {
  const nameOf = (hubId: string) => hubName(hubId) ?? 'Your hub';

  const onCapability = ({ hubId, device, capabilityId, value }: CapabilityChange) => {
    const kind = alarmKind(capabilityId);
    if (kind === null || value !== true || !switches()[kind]) return;
    const title = kind === 'other' ? (device.capabilitiesObj?.[capabilityId]?.title ?? ALARM_TITLE.other) : ALARM_TITLE[kind];
    const where = [device.zoneName, nameOf(hubId)].filter((part): part is string => typeof part === 'string' && part !== '').join(', ');
    // "Smoke alarm: Hall detector", but a device named "Smoke alarm" is not named twice.
    const named = device.name.toLowerCase().includes(title.toLowerCase()) ? device.name : `${title}: ${device.name}`;
    notify({ tag: `alarm:${hubId}:${device.id}:${capabilityId}`, kind, title: oneLine(named, 200), body: oneLine(where, 500), hubId, deviceId: device.id });
  };

  /** Hubs the user was told are unreachable (told again when they are back); hubs seen live since opened. */
  const toldUnreachable = new Set<string>();
  const wasLive = new Set<string>();
  const onLive = ({ hubId, state }: LiveStatus) => {
    const tell = (kind: 'hub-unreachable' | 'hub-reachable', title: string, body: string) => {
      if (switches().hubReachability) notify({ tag: `hub:${hubId}`, kind, title: oneLine(title, 200), body: oneLine(body, 500), hubId });
    };
    if (state.kind === 'live') {
      wasLive.add(hubId);
      if (toldUnreachable.delete(hubId)) tell('hub-reachable', `${nameOf(hubId)} is reachable again`, 'Its devices are live again.');
      return;
    }
    if (LEFT.has(state.kind)) {
      wasLive.delete(hubId);
      toldUnreachable.delete(hubId);
      return;
    }
    const lost = (state.kind === 'reconnecting' && state.attempt >= UNREACHABLE_AFTER_ATTEMPTS) || FAILED_FOR_GOOD.has(state.kind);
    if (!lost || !wasLive.has(hubId) || toldUnreachable.has(hubId)) return;
    toldUnreachable.add(hubId);
    tell('hub-unreachable', `${nameOf(hubId)} is unreachable`, `${liveWords(state, nameOf(hubId)).sentence}.`);
  };

  const stops = [openHub.onCapabilityChange(onCapability), openHub.onLive(onLive)];
  return () => {
    for (const stop of stops) stop();
  };
}
