import { describe, expect, it } from 'vitest';
import type { Device } from '../../../../common/wire';
import { groupByZone, OTHER_ZONE } from '../../../../renderer/src/format/group-devices';

const device = (id: string, name: string, zoneName?: string): Device => ({ id, name, class: 'light', capabilities: [], zoneName });

describe('groupByZone', () => {
  it('groups by zone name, zones alphabetically with Other last, devices by name', () => {
    const groups = groupByZone([
      device('1', 'lamp 10', 'Kitchen'),
      device('2', 'Heater'),
      device('3', 'Lamp 2', 'Kitchen'),
      device('4', 'Sofa light', 'Living room'),
      device('5', 'Door', 'Hall'),
      device('6', 'Plug', '  '),
    ]);
    expect(groups.map((g) => g.zone)).toEqual(['Hall', 'Kitchen', 'Living room', OTHER_ZONE]);
    expect(groups[1]!.devices.map((d) => d.name)).toEqual(['Lamp 2', 'lamp 10']);
    expect(groups[3]!.devices.map((d) => d.name)).toEqual(['Heater', 'Plug']);
  });

  it('does not reorder the caller’s array', () => {
    const input = [device('1', 'B'), device('2', 'A')];
    groupByZone(input);
    expect(input.map((d) => d.name)).toEqual(['B', 'A']);
  });
});
