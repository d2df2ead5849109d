/**
 * Whether the device view follows the hub live; while reconnecting it counts down to the next attempt.
 * While the link to the app's main process is down nobody knows: it shows a grey "Unknown".
 */
import { useStore } from 'zustand';
import { liveLabel } from '../format/live-label';
import { useLinked, useStores } from './stores-context';
import { useNow } from './use-now';

export function LiveIndicator() {
  const { openHub } = useStores();
  const linked = useLinked();
  const state = useStore(openHub, (s) => s.live);
  const now = useNow(linked && state?.state === 'reconnecting');
  if (!state) return null;
  if (!linked) {
    return (
      <p role="status" className="live-indicator" data-live-state="unknown" title="Hubdesk cannot tell while it is not connected to the app.">
        <span className="live-dot" aria-hidden="true" />
        Unknown
      </p>
    );
  }
  return (
    <p role="status" className="live-indicator" data-live-state={state.state}>
      <span className="live-dot" aria-hidden="true" />
      {liveLabel(state, now)}
    </p>
  );
}
