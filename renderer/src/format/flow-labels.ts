/** Words for a flow's last start, shown in the flows strip. */
import type { TriggerState } from '../stores/open-hub-store';
import { formatFetchedAt } from './hub-labels';

/** The result of the last start, as the strip's status says it ("Started" exactly: tests and screen readers rely on it). */
export function flowResultLabel(trigger: TriggerState): string {
  switch (trigger.status) {
    case 'starting':
      return 'Starting…';
    case 'started':
      return 'Started';
    case 'failed':
      return `Not started: ${trigger.message}`;
  }
}

/** When the last start was accepted, as a time of day ("at 21:04:09"), or null when there is none. */
export function flowStartedAtLabel(trigger: TriggerState | undefined): string | null {
  if (trigger?.status !== 'started') return null;
  const time = formatFetchedAt(trigger.at);
  return time === null ? null : `at ${time}`;
}
