/**
 * One device, subscribed to its own entry of the open-hub store: a change of another device does not
 * re-render it. Shows its controls (see CapabilityControl), a favourite star, and the reason a change
 * of it was refused (it stays until dismissed). While the link to the app's main process is down its
 * controls and star are disabled: nothing could confirm a change. While the hub is not live the card
 * is dimmed, its controls are disabled with the reason and each value says when it was last confirmed;
 * the star stays, favourites being the app's own (docs/hub-realtime.md, "While the open hub is not live").
 */
import { memo, useCallback, useContext, useState } from 'react';
import { useStore } from 'zustand';
import type { CapabilityValue } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import type { PendingValue } from '../stores/open-hub-store';
import { presentCapabilities, stateLine } from '../format/device-presentation';
import { logsOf } from '../stores/insights-store';
import { CapabilityControl } from './capability-control';
import { CardSparkline } from './card-sparkline';
import { DeviceHistoryDialog } from './device-history-dialog';
import { DeviceIcon } from './device-icon';
import { CrossIcon, StarIcon } from './line-icon';
import { NotLiveContext } from './not-live-context';
import { useToday } from './slow-clock';
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
  const rows = presentCapabilities(device);
  const blocked = notLive?.blocked ?? null;
  const saturation = device.capabilitiesObj?.light_saturation;
  return (
    <article aria-label={device.name} className="device" data-unavailable={unavailable} data-not-live={notLive !== null}>
      <div className="device-head">
        <DeviceIcon deviceClass={device.class} />
        <h3 title={device.name}>{device.name}</h3>
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
      <StateLine device={device} pending={pending} unavailable={unavailable} />
      {rows.length > 0 && (
        <dl className="capabilities">
          {rows.map((row) => (
            <CapabilityControl
              key={row.state.id}
              row={row}
              deviceName={device.name}
              deviceClass={device.class}
              pending={pending?.[row.state.id]}
              saturation={row.control === 'colour' ? saturation : undefined}
              saturationPending={row.control === 'colour' ? pending?.light_saturation : undefined}
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

/**
 * What the device is doing, in its class's words ("Closed", "Clear · last motion 12:03"), with the
 * user's pending values; an unavailable device says so here (its sentence is the badge's tooltip).
 */
function StateLine({ device, pending, unavailable }: { device: Device; pending: Readonly<Record<string, PendingValue>> | undefined; unavailable: boolean }) {
  // The clock only decides whether a time needs its day, and only motion has a time: one shared clock (slow-clock.ts), read by those cards alone.
  const today = useToday(Object.hasOwn(device.capabilitiesObj ?? {}, 'alarm_motion'));
  const text = stateLine(withPending(device, pending), { now: today ?? 0 });
  if (text === null && !unavailable) return null;
  return (
    <p className="device-state">
      {unavailable && (
        <span className="badge" title={`${device.name} is unavailable, so it cannot be changed now.`}>
          Unavailable
        </span>
      )}
      {text !== null && (
        <span className="device-state-text" title={text}>
          {text}
        </span>
      )}
    </p>
  );
}

/** The device with the user's pending values in place of the hub's (shown until the hub answers). */
function withPending(device: Device, pending: Readonly<Record<string, PendingValue>> | undefined): Device {
  if (!pending || !device.capabilitiesObj) return device;
  const capabilitiesObj = { ...device.capabilitiesObj };
  for (const [capabilityId, entry] of Object.entries(pending)) {
    const state = capabilitiesObj[capabilityId];
    if (state) capabilitiesObj[capabilityId] = { ...state, value: entry.value };
  }
  return { ...device, capabilitiesObj };
}

/** Opens the device's history (docs/insights-app.md), when the hub keeps one of it. */
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
