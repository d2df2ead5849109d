import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCapabilityValue, applyEvents, keepNewerValues, mergeSnapshot, type ValueChange } from '../../../common/device-events';
import type { DeviceEvent } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import { light } from '../renderer/fake-bridge';

const T1 = '2025-01-01T12:00:01.000Z';
const T2 = '2025-01-01T12:00:02.000Z';
const never = () => false;
const onOf = (device: Device | undefined) => device?.capabilitiesObj?.onoff?.value;
const timeOf = (device: Device | undefined) => device?.capabilitiesObj?.onoff?.lastUpdated;

describe('applyEvents', () => {
  const devices = { lamp: light('lamp', 'Lamp', false, 0.5, T1), desk: light('desk', 'Desk', true, 1, T1) };

  it('returns null, and leaves the record alone, when nothing changes', () => {
    const stale = { kind: 'capability', deviceId: 'lamp', capabilityId: 'onoff', value: true, time: '2025-01-01T11:00:00.000Z', transactionId: null } as const;
    expect(applyEvents(devices, [stale, { kind: 'removed', deviceId: 'ghost' }], never)).toBeNull();
    expect(applyEvents(devices, [{ ...stale, time: T2, transactionId: 'mine' }], (tx) => tx === 'mine')).toBeNull();
  });

  it('applies events in order on a copy, replacing only the changed devices', () => {
    const result = applyEvents(
      devices,
      [
        { kind: 'capability', deviceId: 'lamp', capabilityId: 'dim', value: 0.7, time: T2, transactionId: null },
        { kind: 'removed', deviceId: 'lamp' },
        { kind: 'device', device: light('lamp', 'Lamp', true, 1, T2) },
      ],
      never,
    )!;
    expect(result.structureChanged).toBe(true);
    expect(result.devices.lamp!.capabilitiesObj!.onoff!.value).toBe(true);
    expect(result.devices.desk).toBe(devices.desk);
    expect(devices.lamp.capabilitiesObj!.dim!.value).toBe(0.5);
  });

  it('says a value change or an unmoved replacement leaves the structure as it was', () => {
    const result = applyEvents(devices, [{ kind: 'device', device: { ...light('desk', 'Desk', false, 0, T2), available: false } }], never)!;
    expect(result.structureChanged).toBe(false);
  });

  it('tells each value that changed, from capability events and from replaced devices, once per event', () => {
    const changes: ValueChange[] = [];
    applyEvents(
      devices,
      [
        { kind: 'capability', deviceId: 'lamp', capabilityId: 'onoff', value: true, time: T2, transactionId: null },
        { kind: 'capability', deviceId: 'lamp', capabilityId: 'onoff', value: true, time: T2, transactionId: null }, // no change
        { kind: 'capability', deviceId: 'lamp', capabilityId: 'onoff', value: false, time: T2, transactionId: null },
        { kind: 'device', device: light('desk', 'Desk', false, 1, T2) },
        { kind: 'device', device: light('new', 'New', true, 1, T2) }, // a new device states values, it does not change them
      ],
      never,
      (change) => changes.push(change),
    );
    expect(changes.map(({ device, capabilityId, previous, value }) => [device.id, capabilityId, previous, value])).toEqual([
      ['lamp', 'onoff', false, true],
      ['lamp', 'onoff', true, false],
      ['desk', 'onoff', true, false],
    ]);
  });
});

describe('keepNewerValues and mergeSnapshot', () => {
  it('keep the shown values stamped after the fetched ones', () => {
    const shown = light('lamp', 'Lamp', true, 0.9, T2);
    const fetched = light('lamp', 'Lamp', false, 0.4, T1);
    expect(keepNewerValues(fetched, shown).capabilitiesObj).toMatchObject({ onoff: { value: true }, dim: { value: 0.9 } });
    expect(keepNewerValues(shown, fetched)).toBe(shown);
    expect(mergeSnapshot({ lamp: shown, gone: light('gone', 'Gone', true, 1) }, [fetched, light('new', 'New', false, 0)])).toEqual({
      lamp: keepNewerValues(fetched, shown),
      new: light('new', 'New', false, 0),
    });
  });
});

/** Capability events of one lamp, stamped within a few seconds so that many collide or arrive out of order. */
const lampEvent = fc
  .record({
    value: fc.boolean(),
    second: fc.integer({ min: 0, max: 5 }),
  })
  .map(({ value, second }): DeviceEvent => ({
    kind: 'capability',
    deviceId: 'lamp',
    capabilityId: 'onoff',
    value,
    time: `2025-01-01T12:00:0${second}.000Z`,
    transactionId: null,
  }));

describe('the update rule, for any order of events', () => {
  it('an older value never replaces a newer one: the shown time never goes back', () => {
    fc.assert(
      fc.property(fc.array(lampEvent, { maxLength: 30 }), (events) => {
        let devices: Record<string, Device> = { lamp: light('lamp', 'Lamp', false, 0, '2025-01-01T12:00:00.000Z') };
        for (const event of events) {
          const before = Date.parse(timeOf(devices.lamp)!);
          devices = applyEvents(devices, [event], never)?.devices ?? devices;
          expect(Date.parse(timeOf(devices.lamp)!)).toBeGreaterThanOrEqual(before);
        }
      }),
    );
  });

  it('the shown value is that of the last event among the newest ones', () => {
    fc.assert(
      fc.property(fc.array(lampEvent, { minLength: 1, maxLength: 30 }), (events) => {
        const start = { lamp: light('lamp', 'Lamp', false, 0, '2025-01-01T12:00:00.000Z') };
        const shown = applyEvents(start, events, never)?.devices ?? start;
        const newest = Math.max(...events.map((event) => Date.parse((event as { time: string }).time)));
        const last = events.filter((event) => Date.parse((event as { time: string }).time) === newest).at(-1) as { value: boolean };
        expect(onOf(shown.lamp)).toBe(last.value);
      }),
    );
  });

  it('one batch and the same events one by one end alike', () => {
    fc.assert(
      fc.property(fc.array(lampEvent, { maxLength: 30 }), (events) => {
        const start = { lamp: light('lamp', 'Lamp', false, 0, '2025-01-01T12:00:00.000Z') };
        let oneByOne: Record<string, Device> = start;
        for (const event of events) oneByOne = applyEvents(oneByOne, [event], never)?.devices ?? oneByOne;
        expect(applyEvents(start, events, never)?.devices ?? start).toEqual(oneByOne);
      }),
    );
  });

  it('a value equal to the shown one at the same time changes nothing', () => {
    fc.assert(
      fc.property(fc.boolean(), (on) => {
        const device = light('lamp', 'Lamp', on, 0, T1);
        expect(applyCapabilityValue(device, { capabilityId: 'onoff', value: on, time: T1 })).toBeNull();
      }),
    );
  });
});
