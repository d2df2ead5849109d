/**
 * Says, while the link to the app's main process is down, that it is and what Hubdesk does about it
 * (docs/device-controls.md, "Connection state and deadlines").
 */
import { useStore } from 'zustand';
import type { LinkState } from '../stores/link-store';
import { useStores } from './stores-context';

export function LinkBanner() {
  const { link } = useStores();
  const state = useStore(link, (s) => s.link);
  if (state.state === 'connected') return null;
  return (
    <div role="alert" className="link-banner" data-link-state={state.state}>
      <BannerText link={state} />
    </div>
  );
}

function BannerText({ link }: { link: Exclude<LinkState, { state: 'connected' }> }) {
  switch (link.state) {
    case 'reconnecting':
      return (
        <p>
          <strong>Hubdesk lost its connection to the app and is reconnecting…</strong> {link.reason} What is shown may be out of date, and changes are paused
          until it is back.
        </p>
      );
    case 'waiting':
      return (
        <p>
          <strong>Hubdesk is not running.</strong> {link.reason} What is shown may be out of date, and changes are paused until it is back.
        </p>
      );
    case 'restarted':
      return (
        <p>
          <strong>Hubdesk was restarted — reloading this tab…</strong>{' '}
          <button type="button" onClick={() => location.reload()}>
            Reload
          </button>
        </p>
      );
    case 'elsewhere':
      return (
        <p>
          <strong>Hubdesk is open in another tab.</strong> One tab at a time shows the app, so this one stopped.{' '}
          <button type="button" onClick={() => location.reload()}>
            Use here
          </button>
        </p>
      );
    case 'lost':
      return (
        <p>
          <strong>Hubdesk lost its connection to the app and stopped trying.</strong> {link.reason}
        </p>
      );
  }
}
