/** Forward to in words (docs/webhooks-app.md, "Forward to"): a row's short chip, the detail pane's sentence, a queue's figures. */
import type { ForwardQueue, ForwardState } from '../../../common/forward-target';
import { formatTime } from './date-time';

const ms = (value: number) => `${Math.round(value)} ms`;
const seconds = (value: number) => `${Math.max(0, Math.ceil(value / 1000))} s`;

/** The row's chip: the local server's status and time, or where the forwarding is. */
export function forwardChip(state: ForwardState): string {
  switch (state.state) {
    case 'queued':
      return '→ queued';
    case 'sending':
      return state.attempt === 1 ? '→ sending' : `→ sending (try ${state.attempt})`;
    case 'retrying':
      return `→ ${state.last.length <= 3 ? state.last : 'no answer'} · retrying`;
    case 'answered':
      return `→ ${state.statusCode} · ${ms(state.durationMs)}`;
    case 'failed':
      return `→ ${state.statusCode ?? 'failed'} · gave up`;
    case 'dropped':
      return '→ dropped';
  }
}

/** The detail pane's sentence; `now` for the time to a retry. */
export function forwardSentence(state: ForwardState, now: number): string {
  switch (state.state) {
    case 'queued':
      return 'Waiting its turn to be forwarded to the local server.';
    case 'sending':
      return `Sending it to the local server (attempt ${state.attempt}).`;
    case 'retrying':
      return `Attempt ${state.attempt} failed (${state.last}); trying again in ${seconds(state.nextAt - now)}.`;
    case 'answered':
      return `The local server answered ${state.statusCode} in ${ms(state.durationMs)} at ${formatTime(new Date(state.at).toISOString())}${state.attempts > 1 ? `, at attempt ${state.attempts}` : ''}.`;
    case 'failed':
      return `Not forwarded after ${state.attempts} ${state.attempts === 1 ? 'attempt' : 'attempts'}: ${state.reason}`;
    case 'dropped':
      return 'Not forwarded: the forwarding queue was full and this message was the oldest waiting.';
  }
}

/** A registration's queue, when there is anything to say. */
export function forwardQueueLabel(queue: ForwardQueue | undefined): string | null {
  if (!queue || (queue.queued === 0 && queue.dropped === 0)) return null;
  const parts = [`${queue.queued} waiting`];
  if (queue.dropped > 0) parts.push(`${queue.dropped} dropped (queue full)`);
  return parts.join(' · ');
}
