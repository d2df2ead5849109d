import { describe, expect, it } from 'vitest';
import { summariesOf, summaryOf } from '../../../../renderer/src/stores/device-updates';
import { light } from '../fake-bridge';

describe('summariesOf', () => {
  it('returns the previous summaries while names and places are the same', () => {
    const devices = { lamp: light('lamp', 'Lamp', false, 0.5) };
    const previous = [summaryOf(devices.lamp)];
    expect(summariesOf({ lamp: light('lamp', 'Lamp', true, 1) }, previous)).toBe(previous);
    expect(summariesOf({ lamp: { ...devices.lamp, zoneName: 'Hall' } }, previous)).toEqual([{ id: 'lamp', name: 'Lamp', class: 'light', zoneName: 'Hall' }]);
    expect(summariesOf({}, previous)).toEqual([]);
  });
});
