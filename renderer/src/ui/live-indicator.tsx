/**
 * Whether the device view follows the hub live, and if not why, in the words every place uses
 * (common/live-words.ts); while a retry is ahead it counts down to it. While the link to the app's main
 * process is down nobody knows: it shows a grey "Unknown".
 */
import { useStore } from 'zustand';
import { liveWords } from '../../../common/live-words';
import { useLinked, useStores } from './stores-context';
import { useNow } from './use-now';

export function LiveIndicator({ hubName }: { hubName: string }) {
  const { openHub } = useStores();
  const linked = useLinked();
  const state = useStore(openHub, (s) => s.live);
  const now = useNow(linked && state?.kind === 'reconnecting');
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
    <p role="status" className="live-indicator" data-live-state={state.kind}>
      <span className="live-dot" aria-hidden="true" />
      {liveWords(state, hubName, now).status}
    </p>
  );
}
