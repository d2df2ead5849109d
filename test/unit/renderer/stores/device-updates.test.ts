import { describe, expect, it } from 'vitest';
import { applyEvents, keepNewerValues, summariesOf, summaryOf } from '../../../../renderer/src/stores/device-updates';
import { light } from '../fake-bridge';

const T1 = '2025-01-01T12:00:01.000Z';
const T2 = '2025-01-01T12:00:02.000Z';
const never = () => false;

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
});

describe('keepNewerValues', () => {
  it('keeps the shown values stamped after the fetched ones', () => {
    const shown = light('lamp', 'Lamp', true, 0.9, T2);
    const fetched = light('lamp', 'Lamp', false, 0.4, T1);
    expect(keepNewerValues(fetched, shown).capabilitiesObj).toMatchObject({ onoff: { value: true }, dim: { value: 0.9 } });
    expect(keepNewerValues(shown, fetched)).toBe(shown);
  });
});

describe('summariesOf', () => {
  it('returns the previous summaries while names and places are the same', () => {
    const devices = { lamp: light('lamp', 'Lamp', false, 0.5) };
    const previous = [summaryOf(devices.lamp)];
    expect(summariesOf({ lamp: light('lamp', 'Lamp', true, 1) }, previous)).toBe(previous);
    expect(summariesOf({ lamp: { ...devices.lamp, zoneName: 'Hall' } }, previous)).toEqual([{ id: 'lamp', name: 'Lamp', class: 'light', zoneName: 'Hall' }]);
    expect(summariesOf({}, previous)).toEqual([]);
  });
});
