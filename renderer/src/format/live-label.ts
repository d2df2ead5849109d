/** The words of the live indicator: whether the device view follows the hub as it changes, and if not why. */
import type { LiveStatus } from '../../../common/ipc-contract';
import { secondsUntil } from './countdown';

export type LiveState = LiveStatus['state'];

export function liveLabel(state: LiveState, now: number): string {
  switch (state.state) {
    case 'live':
      return 'Live';
    case 'connecting':
      return 'Connecting…';
    case 'reconnecting': {
      const seconds = secondsUntil(state.nextRetryAt, now);
      return seconds > 0 ? `Reconnecting in ${seconds} s…` : 'Reconnecting…';
    }
    case 'offline':
      return `Not live: ${state.reason}`;
  }
}
