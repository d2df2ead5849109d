/**
 * The words of a live state (common/ipc-contract.ts `LiveState`), made here and nowhere else: the
 * window's live indicator, the tray's tooltip and the desktop notifications all say the same thing
 * about the same state (docs/hub-realtime.md, "The open hub's model and live states"). Written for a person
 * at home, not an engineer: what is wrong, and what Hubdesk does about it or what they can do.
 */
import type { ErrorCode } from './app-error';
import { secondsUntil } from './countdown';
import type { LiveState, ReconnectCause } from './ipc-contract';

export interface LiveWords {
  /** Beside the hub's devices, where the hub is named already and a banner says the rest: "Live", "Connecting…" or "Not live". */
  status: string;
  /** On its own (tray, notification, the banner over the hub's devices): names the hub. */
  sentence: string;
  /** Why a change cannot be sent now, for a disabled control ("Home is not responding, so changes can’t be sent now"); null where changes go through. */
  blocked: string | null;
}

/** Under the banner's sentence while the hub is not live: what the cards show meanwhile. */
export const NOT_LIVE_VALUES = 'Each value shows when it was last confirmed.';

/** What went wrong before a retry, as the first half of a sentence. */
const CAUSE_WORDS: Readonly<Record<ReconnectCause, (hub: string) => string>> = {
  'hub-not-answering': (hub) => `${hub} is not responding`,
  'cloud-unreachable': () => 'Hubdesk can’t reach the cloud',
  offline: () => 'This computer is offline',
  refused: (hub) => `${hub} turned the connection down`,
  'session-ended': (hub) => `${hub} ended the session`,
};

/** Why the app could not open the hub, by the error's code. */
function notOpened(code: ErrorCode, hub: string): string {
  if (code === 'signed-out') return 'You are signed out';
  if (code === 'internal') return `Hubdesk didn’t hear back while opening ${hub} — try again`;
  return `Hubdesk couldn’t open ${hub} — try again`;
}

/** "trying again in 4 s" while the attempt is ahead, "trying again now" once it is due; without `now` (a line that is not redrawn every second) "Hubdesk keeps trying". */
function retryWords(nextAttemptAt: number, now: number | undefined): string {
  if (now === undefined) return 'Hubdesk keeps trying';
  const seconds = secondsUntil(nextAttemptAt, now);
  return seconds > 0 ? `trying again in ${seconds} s` : 'trying again now';
}

function sentence(state: LiveState, hub: string, now: number | undefined): string {
  switch (state.kind) {
    case 'live':
      return `${hub} is live`;
    case 'connecting':
      return `Connecting to ${hub}…`;
    case 'not-responding':
      return `${hub} is not responding — waiting for it`;
    case 'reconnecting':
      return `${CAUSE_WORDS[state.cause](hub)} — ${retryWords(state.nextAttemptAt, now)}`;
    case 'closed':
      return `Live updates are off for ${hub}`;
    case 'signed-out':
      return 'You are signed out';
    case 'hub-refused':
      return `${hub} refused Hubdesk access — sign out and in again to grant it`;
    case 'hub-gone':
      return `${hub} is no longer in your account`;
    case 'no-realtime':
      return `${hub} doesn’t send live updates — reload to see changes`;
    case 'not-opened':
      return notOpened(state.code, hub);
  }
}

/** What stands between a change and the hub, as the first half of "…, so changes can’t be sent now"; null where changes go through. */
function obstacle(state: LiveState, hub: string): string | null {
  switch (state.kind) {
    case 'live':
    case 'no-realtime': // changes are sent and answered without the live channel
      return null;
    case 'connecting':
      return `Hubdesk is still connecting to ${hub}`;
    case 'not-responding':
      return `${hub} is not responding`;
    case 'reconnecting':
      return CAUSE_WORDS[state.cause](hub);
    case 'closed':
      return `Hubdesk closed ${hub}`;
    case 'signed-out':
      return 'You are signed out';
    case 'hub-refused':
      return `${hub} refused Hubdesk access`;
    case 'hub-gone':
      return `${hub} is no longer in your account`;
    case 'not-opened':
      return state.code === 'signed-out' ? 'You are signed out' : `Hubdesk couldn’t open ${hub}`;
  }
}

/** The words of a live state of the hub named `hubName`; `now` (epoch ms) adds the countdown to the next attempt. */
export function liveWords(state: LiveState, hubName: string, now?: number): LiveWords {
  const said = sentence(state, hubName, now);
  const blocking = obstacle(state, hubName);
  const blocked = blocking === null ? null : `${blocking}, so changes can’t be sent now`;
  if (state.kind === 'live') return { status: 'Live', sentence: said, blocked };
  if (state.kind === 'connecting') return { status: 'Connecting…', sentence: said, blocked };
  return { status: 'Not live', sentence: said, blocked };
}
