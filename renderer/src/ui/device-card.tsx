import type { Device } from '../../../common/wire';
import { capabilityLines } from '../format/format-capability';
import { DeviceIcon } from './device-icon';

export function DeviceCard({ device }: { device: Device }) {
  const unavailable = device.available === false;
  const lines = capabilityLines(device);
  return (
    <article aria-label={device.name} className="device" data-unavailable={unavailable}>
      <div className="device-head">
        <DeviceIcon deviceClass={device.class} />
        <h3>{device.name}</h3>
        {unavailable && <span className="badge">Unavailable</span>}
      </div>
      {lines.length > 0 && (
        <dl className="capabilities">
          {lines.map((line) => (
            <div key={line.id}>
              <dt>{line.label}</dt>
              <dd>{line.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </article>
  );
}
