/**
 * Whether the device view follows the hub live, in a word or two of the words every place uses
 * (common/live-words.ts): "Live", "Connecting…", "Not live" — the banner across the view says why and
 * what Hubdesk does about it (live-banner.tsx). While the link to the app's main process is down nobody
 * knows: it shows a grey "Unknown".
 */
import { useStore } from 'zustand';
import { liveWords } from '../../../common/live-words';
import { useLinked, useStores } from './stores-context';

export function LiveIndicator({ hubName }: { hubName: string }) {
  const { openHub } = useStores();
  const linked = useLinked();
  const state = useStore(openHub, (s) => s.live);
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
      {liveWords(state, hubName).status}
    </p>
  );
}
