/**
 * Across the open hub's view while it is not live (docs/hub-realtime.md, "While the open hub is not
 * live"): what is wrong and what Hubdesk does about it, in the words of common/live-words.ts, counting
 * down to the next attempt with **Try now** while one is ahead; then why changes cannot be sent (the
 * disabled controls point here) and that each value says when it was last confirmed. A polite status
 * that is always there, so a screen reader hears each change of state — the sentence without its
 * countdown, not a new number every second. Gone, with no action, once the hub is live again.
 */
import { useStore } from 'zustand';
import { secondsUntil } from '../../../common/countdown';
import { liveWords, NOT_LIVE_VALUES } from '../../../common/live-words';
import { useLinked, useStores } from './stores-context';
import { useNow } from './use-now';

/** `shown`: the hub's devices are shown (before that, the panel's own status says why they are not). */
export function LiveBanner({ hubName, blockedId, shown }: { hubName: string; blockedId: string; shown: boolean }) {
  const { openHub } = useStores();
  // While the link to the app is down nobody knows the hub's state: the link banner says so instead.
  const linked = useLinked();
  const live = useStore(openHub, (s) => s.live);
  const outage = useStore(openHub, (s) => s.outage);
  const state = shown && linked && outage ? live : null;
  const now = useNow(state?.kind === 'reconnecting');
  const retryAhead = state?.kind === 'reconnecting' && secondsUntil(state.nextAttemptAt, now) > 0;
  const words = state && liveWords(state, hubName, now);
  return (
    <div className="live-banner" data-outage={state !== null} data-live-state={state?.kind}>
      <div role="status" aria-live="polite" className="live-banner-text">
        {state && words && (
          <>
            <p className="visually-hidden">{liveWords(state, hubName).sentence}</p>
            <p className="live-banner-sentence" aria-hidden="true">
              {words.sentence}
            </p>
            <p>
              {words.blocked && <span id={blockedId}>{words.blocked}.</span>} {NOT_LIVE_VALUES}
            </p>
          </>
        )}
      </div>
      {retryAhead && (
        <button type="button" className="primary" onClick={() => openHub.getState().retryNow()}>
          Try now
        </button>
      )}
    </div>
  );
}
