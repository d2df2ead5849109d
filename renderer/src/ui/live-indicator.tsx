/** Whether the device view follows the hub live; while reconnecting it counts down to the next attempt. */
import { useStore } from 'zustand';
import { liveLabel } from '../format/live-label';
import { useStores } from './stores-context';
import { useNow } from './use-now';

export function LiveIndicator() {
  const { openHub } = useStores();
  const state = useStore(openHub, (s) => s.live);
  const now = useNow(state?.state === 'reconnecting');
  if (!state) return null;
  return (
    <p role="status" className="live-indicator" data-live-state={state.state}>
      <span className="live-dot" aria-hidden="true" />
      {liveLabel(state, now)}
    </p>
  );
}
