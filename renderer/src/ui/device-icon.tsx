/**
 * Small line icons by device class, drawn inline (the CSP allows no remote images and this keeps
 * them in the text colour). Decorative: the device name says what it is.
 */
import type { ReactNode } from 'react';
import { LineIcon } from './line-icon';

const PATHS: Record<string, ReactNode> = {
  light: (
    <>
      <path d="M9 18h6M10 21h4" />
      <path d="M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z" />
    </>
  ),
  socket: (
    <>
      <rect x="4" y="4" width="16" height="16" rx="4" />
      <path d="M9.5 10v2M14.5 10v2M10 16h4" />
    </>
  ),
  thermostat: (
    <>
      <path d="M14 14.8V5a2 2 0 0 0-4 0v9.8a4 4 0 1 0 4 0z" />
      <path d="M12 9v7" />
    </>
  ),
  sensor: (
    <>
      <circle cx="12" cy="12" r="2" />
      <path d="M7.8 7.8a6 6 0 0 0 0 8.4M16.2 7.8a6 6 0 0 1 0 8.4M5 5a10 10 0 0 0 0 14M19 5a10 10 0 0 1 0 14" />
    </>
  ),
  lock: (
    <>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </>
  ),
  windowcoverings: (
    <>
      <path d="M4 4h16M5 4v16M19 4v16" />
      <path d="M5 8h14M5 12h14M12 12v4" />
    </>
  ),
  fan: (
    <>
      <circle cx="12" cy="12" r="1.5" />
      <path d="M12 10.5c0-4 1-7 3.5-7S18 7 12 10.5zM13.5 12c4 0 7 1 7 3.5S17 18 13.5 12zM12 13.5c0 4-1 7-3.5 7S6 17 12 13.5zM10.5 12c-4 0-7-1-7-3.5S7 6 10.5 12z" />
    </>
  ),
  speaker: (
    <>
      <rect x="6" y="3" width="12" height="18" rx="2" />
      <circle cx="12" cy="14" r="3" />
      <path d="M12 7h.01" />
    </>
  ),
  tv: (
    <>
      <rect x="3" y="5" width="18" height="12" rx="2" />
      <path d="M8 21h8M12 17v4" />
    </>
  ),
  generic: (
    <>
      <rect x="4" y="4" width="16" height="16" rx="3" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
};

/** Classes that look like one of the drawn ones. */
const ALIASES: Record<string, string> = {
  heater: 'thermostat',
  blinds: 'windowcoverings',
  curtain: 'windowcoverings',
  sunshade: 'windowcoverings',
  doorbell: 'sensor',
  button: 'sensor',
  homealarm: 'sensor',
  amplifier: 'speaker',
};

export function DeviceIcon({ deviceClass }: { deviceClass: string }) {
  const key = Object.hasOwn(PATHS, deviceClass) ? deviceClass : ((Object.hasOwn(ALIASES, deviceClass) ? ALIASES[deviceClass] : undefined) ?? 'generic');
  return <LineIcon className="device-icon">{PATHS[key] ?? PATHS.generic}</LineIcon>;
}
