/**
 * "What's on" (format/whats-on.ts): the open hub's devices that are on, open, unlocked or playing now,
 * live, each with the change that ends it ("Turn off", "Close", "Lock", "Pause"), and "Turn off all
 * lights / sockets / fans". Changes go through the open-hub store as a card's would: shown at once,
 * confirmed by the hub or rolled back with its reason on the card. Opened from the hub's head.
 */
import { useId, useMemo } from 'react';
import { useStore } from 'zustand';
import { type ActiveDevice, activeDevices, type Change, TURN_OFF_CLASSES, turnOffClass } from '../format/whats-on';
import { ModalDialog } from './modal-dialog';
import { useLinked, useStores } from './stores-context';

export function WhatsOnDialog({ hubName, onClose }: { hubName: string; onClose(): void }) {
  const { openHub } = useStores();
  const devices = useStore(openHub, (s) => s.devices);
  const mayControl = useStore(openHub, (s) => s.permissions.control);
  const linked = useLinked();
  const active = useMemo(() => activeDevices(Object.values(devices)), [devices]);
  const titleId = useId();
  const send = (changes: readonly Change[]) => {
    for (const change of changes) void openHub.getState().setCapability(change.deviceId, change.capabilityId, change.value);
  };
  const disabled = !mayControl || !linked;
  const classes = TURN_OFF_CLASSES.map((entry) => ({ ...entry, changes: turnOffClass(active, entry.deviceClass) })).filter((entry) => entry.changes.length > 0);
  return (
    <ModalDialog open labelledBy={titleId} className="whats-on-dialog" onClose={onClose}>
      <div className="whats-on-head">
        <h2 id={titleId}>What’s on at {hubName}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p role="status" className="muted">
        {active.length === 0
          ? 'Everything is off, closed and locked.'
          : `${active.length} ${active.length === 1 ? 'device' : 'devices'} on, open or unlocked now.`}
      </p>
      {classes.length > 0 && (
        <div className="whats-on-classes">
          {classes.map((entry) => (
            <button key={entry.deviceClass} type="button" disabled={disabled} onClick={() => send(entry.changes)}>
              Turn off all {entry.plural} ({entry.changes.length})
            </button>
          ))}
        </div>
      )}
      {active.length > 0 && (
        <ul className="whats-on-list" aria-label="On now">
          {active.map((device) => (
            <ActiveRow key={device.id} device={device} disabled={disabled} onEnd={send} />
          ))}
        </ul>
      )}
    </ModalDialog>
  );
}

function ActiveRow({ device, disabled, onEnd }: { device: ActiveDevice; disabled: boolean; onEnd(changes: readonly Change[]): void }) {
  return (
    <li>
      <span className="whats-on-name">{device.name}</span>
      <span className="muted">{device.zoneName}</span>
      <span className="whats-on-state">{device.state}</span>
      {device.end && (
        <button type="button" aria-label={`${device.end.verb} ${device.name}`} disabled={disabled} onClick={() => onEnd([device.end!.change])}>
          {device.end.verb}
        </button>
      )}
    </li>
  );
}
