/** Says, while the link to the app's main process is down, that it is and whether Hubdesk is reconnecting (issue 13 §2). */
import { useStore } from 'zustand';
import { useStores } from './stores-context';

export function LinkBanner() {
  const { link } = useStores();
  const state = useStore(link, (s) => s.link);
  if (state.state === 'connected') return null;
  return (
    <div role="alert" className="link-banner" data-link-state={state.state}>
      {state.state === 'reconnecting' ? (
        <p>
          <strong>Hubdesk lost its connection to the app and is reconnecting…</strong> {state.reason} What is shown may be out of date, and
          changes are paused until it is back.
        </p>
      ) : (
        <p>
          <strong>Hubdesk lost its connection to the app and stopped trying.</strong> {state.reason}
        </p>
      )}
    </div>
  );
}
