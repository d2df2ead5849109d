/** Devices and open-hub snapshots for unit tests of main's view of the open hub (mirror, alerts, tray). */
import type { DeviceList, HubSnapshot } from '../../common/ipc-contract';
import type { Device } from '../../common/wire';

/** A device in the kitchen whose capabilities (titled by their id) hold `values`. */
export function device(id: string, name: string, values: Record<string, boolean | number>, setable = true): Device {
  return {
    id,
    name,
    class: 'socket',
    zoneName: 'Kitchen',
    capabilities: Object.keys(values),
    capabilitiesObj: Object.fromEntries(
      Object.entries(values).map(([capabilityId, value]) => [
        capabilityId,
        { id: capabilityId, type: typeof value === 'boolean' ? 'boolean' : 'number', title: capabilityId, value, getable: true, setable, lastUpdated: null },
      ]),
    ),
  };
}

/** A loaded snapshot of `hubId` with two flows (one disabled). */
export function snapshot(hubId: string, devices: Device[], options: { favourites?: string[]; control?: boolean; canStart?: boolean } = {}): HubSnapshot {
  const list: DeviceList = {
    hubId,
    route: 'local-secure',
    rttMs: 1,
    routeOutcomes: [],
    fetchedAt: '2026-11-23T00:00:00.000Z',
    devices,
    permissions: { control: options.control ?? true, flows: options.canStart === false ? 'read' : 'start' },
    favourites: options.favourites ?? [],
  };
  const flows = [
    { id: 'f1', name: 'Good night', enabled: true },
    { id: 'f2', name: 'Disabled one', enabled: false },
  ];
  return { status: 'loaded', hubId, devices: list, flows: { status: 'loaded', list: { hubId, flows, canStart: options.canStart ?? true } } };
}
