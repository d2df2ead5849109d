/** The user's hubs as a list of buttons; each button's name is exactly the hub name. */
import { useStore } from 'zustand';
import type { HubView } from '../../../common/ipc-contract';
import { describeHubsError } from '../format/describe-error';
import { platformLabel, routesLabel } from '../format/hub-labels';
import { useStores } from './stores-context';

/** `onOpen` runs after the user chose a hub (the app shell shows the Hubs view then). */
export function HubList({ onOpen }: { onOpen?: () => void } = {}) {
  const { hubs, openHub } = useStores();
  const list = useStore(hubs, (s) => s.list);
  const openHubId = useStore(openHub, (s) => s.hubId);

  return (
    <nav aria-label="Hubs" className="hub-list" aria-busy={list.status === 'loading' || list.status === 'idle'}>
      <p className="panel-title" aria-hidden="true">
        Hubs
      </p>
      <div role="status" aria-live="polite">
        {(list.status === 'loading' || list.status === 'idle') && <p>Loading hubs…</p>}
        {list.status === 'error' && <p className="error-text">{describeHubsError(list.error).text}</p>}
        {list.status === 'loaded' && list.hubs.length === 0 && <p>There are no hubs in your account yet.</p>}
      </div>
      {list.status === 'error' && describeHubsError(list.error).retry && (
        <button type="button" onClick={() => void hubs.getState().reload()}>
          Try again
        </button>
      )}
      {list.status === 'loaded' && list.hubs.length > 0 && (
        <ul>
          {list.hubs.map((hub) => (
            <HubItem key={hub.id} hub={hub} selected={hub.id === openHubId} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </nav>
  );
}

function HubItem({ hub, selected, onOpen }: { hub: HubView; selected: boolean; onOpen: (() => void) | undefined }) {
  const { openHub } = useStores();
  // Ids from the hub record are not guaranteed to be valid in an id attribute; encode them.
  const detailsId = `hub-details-${encodeURIComponent(hub.id)}`;
  return (
    <li className="hub-item" data-selected={selected}>
      <button
        type="button"
        aria-current={selected ? 'true' : undefined}
        aria-describedby={detailsId}
        onClick={() => {
          openHub.getState().open(hub.id);
          onOpen?.();
        }}
      >
        {hub.name}
      </button>
      <p id={detailsId} className="hub-details">
        <span>{platformLabel(hub.platform)}</span>
        <span>{routesLabel(hub.routes)}</span>
      </p>
    </li>
  );
}
