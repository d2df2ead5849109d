/**
 * One device, subscribed to its own entry of the open-hub store: a change of another device does not
 * re-render it. Shows its controls (see CapabilityControl), a favourite star, and the reason a change
 * of it was refused (it stays until dismissed). While the link to the app's main process is down its
 * controls and star are disabled: nothing could confirm a change. While the hub is not live the card
 * is dimmed, its controls are disabled with the reason and each value says when it was last confirmed;
 * the star stays, favourites being the app's own (docs/hub-realtime.md, "While the open hub is not live").
 */
import { type CSSProperties, memo, useCallback, useContext, useState } from 'react';
import { useStore } from 'zustand';
import type { CapabilityValue } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import type { PendingValue } from '../stores/open-hub-store';
import { capabilityStates } from '../format/format-capability';
import { logsOf } from '../stores/insights-store';
import { CapabilityControl } from './capability-control';
import { CardSparkline } from './card-sparkline';
import { DeviceHistoryDialog } from './device-history-dialog';
import { DeviceIcon } from './device-icon';
import { CrossIcon, StarIcon } from './line-icon';
import { NotLiveContext } from './not-live-context';
import { useLinked, useStores } from './stores-context';

export const DeviceCard = memo(function DeviceCard({ id }: { id: string }) {
  const { openHub } = useStores();
  const device = useStore(openHub, (s) => s.devices[id]);
  const pending = useStore(openHub, (s) => s.pending[id]);
  const favourite = useStore(openHub, (s) => s.favourites[id] === true);
  const mayControl = useStore(openHub, (s) => s.permissions.control);
  const linked = useLinked();
  const notLive = useContext(NotLiveContext);
  const change = useCallback((capabilityId: string, value: CapabilityValue) => void openHub.getState().setCapability(id, capabilityId, value), [openHub, id]);
  if (!device) return null;

  const unavailable = device.available === false;
  const capabilities = capabilityStates(device);
  const blocked = notLive?.blocked ?? null;
  return (
    <article aria-label={device.name} className="device" data-unavailable={unavailable} data-not-live={notLive !== null} style={lightColour(device, pending)}>
      <div className="device-head">
        <DeviceIcon deviceClass={device.class} />
        <h3 title={device.name}>{device.name}</h3>
        {unavailable && (
          <span className="badge" title={`${device.name} is unavailable, so it cannot be changed now.`}>
            Unavailable
          </span>
        )}
        <button
          type="button"
          className="star"
          aria-pressed={favourite}
          aria-label={`Favourite: ${device.name}`}
          title={favourite ? 'Unpin from the top' : 'Pin at the top'}
          disabled={!linked}
          onClick={() => void openHub.getState().setFavourite(id, !favourite)}
        >
          <StarIcon filled={favourite} />
        </button>
      </div>
      {capabilities.length > 0 && (
        <dl className="capabilities">
          {capabilities.map((state) => (
            <CapabilityControl
              key={state.id}
              state={state}
              pending={pending?.[state.id]}
              disabled={!mayControl || unavailable || !linked || blocked !== null}
              blocked={blocked ?? undefined}
              confirmedAt={notLive ? notLive.confirmedAt : undefined}
              onChange={change}
            />
          ))}
        </dl>
      )}
      <CardSparkline deviceId={id} />
      <HistoryButton deviceId={id} deviceName={device.name} />
      <CardError deviceId={id} />
    </article>
  );
});

/** A coloured light's hue and saturation (the user's pending values first) as CSS variables: its colour swatch and saturation track show them. */
function lightColour(device: Device, pending: Readonly<Record<string, PendingValue>> | undefined): CSSProperties | undefined {
  const valueOf = (id: string) => {
    const value = pending?.[id]?.value ?? device.capabilitiesObj?.[id]?.value;
    return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : undefined;
  };
  const hue = valueOf('light_hue');
  if (hue === undefined) return undefined;
  return { '--light-hue': `${Math.round(hue * 360)}deg`, '--light-saturation': `${Math.round((valueOf('light_saturation') ?? 1) * 100)}%` } as CSSProperties;
}

/** Opens the device's history (issue 16 §2), when the hub keeps one of it. */
function HistoryButton({ deviceId, deviceName }: { deviceId: string; deviceName: string }) {
  const { insights } = useStores();
  const logged = useStore(insights, (s) => logsOf(s, deviceId).length > 0);
  const [open, setOpen] = useState(false);
  if (!logged) return null;
  return (
    <>
      <button type="button" className="insights-button" aria-label={`History of ${deviceName}`} onClick={() => setOpen(true)}>
        History
      </button>
      {open && <DeviceHistoryDialog deviceId={deviceId} deviceName={deviceName} onClose={() => setOpen(false)} />}
    </>
  );
}

function CardError({ deviceId }: { deviceId: string }) {
  const { openHub } = useStores();
  const error = useStore(openHub, (s) => s.errors[deviceId]);
  if (!error) return null;
  return (
    <div role="alert" className="card-error">
      <p>{error.message}</p>
      <button type="button" className="dismiss" aria-label="Dismiss" onClick={() => openHub.getState().dismissError(deviceId)}>
        <CrossIcon />
      </button>
    </div>
  );
}
