import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CapabilityState, Device } from '../../../../common/wire';
import {
  buildCommands,
  choiceCommands,
  MAX_QUERY_LENGTH,
  parseNumberEntry,
  searchCommands,
  type PaletteSource,
} from '../../../../renderer/src/format/command-search';
import { FULL_CONTROL, READ_ONLY, hub, light } from '../fake-bridge';

const thermostat: Device = {
  id: 't1',
  name: 'Café thermostat',
  class: 'thermostat',
  zoneName: 'Living room',
  capabilities: ['target_temperature', 'thermostat_mode', 'measure_temperature'],
  capabilitiesObj: {
    target_temperature: {
      id: 'target_temperature',
      type: 'number',
      title: 'Target temperature',
      value: 21,
      min: 5,
      max: 35,
      step: 0.5,
      units: '°C',
      getable: true,
      setable: true,
      lastUpdated: null,
    },
    thermostat_mode: {
      id: 'thermostat_mode',
      type: 'enum',
      title: 'Mode',
      value: 'heat',
      values: [
        { id: 'heat', title: 'Heat' },
        { id: 'off', title: 'Off' },
      ],
      getable: true,
      setable: true,
      lastUpdated: null,
    },
    measure_temperature: {
      id: 'measure_temperature',
      type: 'number',
      title: 'Temperature',
      value: 20.5,
      units: '°C',
      getable: true,
      setable: false,
      lastUpdated: null,
    },
  },
};

const source = (overrides: Partial<PaletteSource> = {}): PaletteSource => ({
  hubs: [hub('h1', 'Home'), hub('h2', 'Holiday cabin')],
  openHubId: 'h1',
  devices: [light('l1', 'Floor lamp', false, 0.5), thermostat, { ...light('l2', 'Broken lamp', true, 1), available: false }],
  permissions: FULL_CONTROL,
  flows: [
    { id: 'f1', name: 'Good night', enabled: true },
    { id: 'f2', name: 'Holiday lights', enabled: false },
  ],
  ...overrides,
});

const titles = (query: string, s = source()) => searchCommands(buildCommands(s), query, 50).map((c) => c.title);

describe('command palette search', () => {
  it('offers "Turn off all lights" while lights are on (and may be switched), with every light that is on', () => {
    const lit = source({ devices: [light('l1', 'Floor lamp', true, 0.5), light('l3', 'Desk lamp', true, 1), light('l4', 'Hall light', false, 1), thermostat] });
    const [command] = searchCommands(buildCommands(lit), 'turn off all lights', 5);
    expect(command).toMatchObject({ title: 'Turn off all lights', verb: 'Turn off', detail: 'What’s on · 2 on now' });
    expect(command!.action).toEqual({ kind: 'set-many', changes: ['l3', 'l1'].map((deviceId) => ({ deviceId, capabilityId: 'onoff', value: false })) });
    expect(titles('turn off all')).toEqual([]); // nothing is on in the default source
    expect(titles('turn off all lights', { ...lit, permissions: READ_ONLY })).toEqual([]);
  });

  it('offers hubs, views, what may be set on available devices, and enabled flows', () => {
    const commands = buildCommands(source());
    expect(commands.map((c) => [c.title, c.verb])).toEqual([
      ['Home', 'Open'],
      ['Holiday cabin', 'Open'],
      ['Hubs', 'Go to'],
      ['Webhooks', 'Go to'],
      ['Settings', 'Go to'],
      ['Café thermostat: Target temperature', 'Set…'],
      ['Café thermostat: Mode', 'Choose…'],
      ['Floor lamp: On/off', 'Turn on'],
      ['Floor lamp: Brightness', 'Set…'],
      ['Good night', 'Start'],
    ]);
    expect(commands.find((c) => c.title === 'Floor lamp: On/off')!.action).toEqual({ kind: 'set', deviceId: 'l1', capabilityId: 'onoff', value: true });
    expect(commands.find((c) => c.title === 'Home')!.detail).toBe('Hub · open now');
  });

  it('offers no device command to a sign-in that may not control', () => {
    expect(buildCommands(source({ permissions: READ_ONLY })).some((c) => c.id.startsWith('capability:'))).toBe(false);
  });

  it('needs every word, ignoring case and accents, and ranks title word starts first', () => {
    expect(titles('lamp')).toEqual(['Floor lamp: On/off', 'Floor lamp: Brightness']);
    expect(titles('CAFE mode')).toEqual(['Café thermostat: Mode']);
    expect(titles('living target')).toEqual(['Café thermostat: Target temperature']); // the zone is in the description
    expect(titles('ho').slice(0, 2)).toEqual(['Home', 'Holiday cabin']);
    expect(titles('zzz')).toEqual([]);
  });

  it('keeps the natural order for an empty query, and the limit', () => {
    expect(titles('   ').slice(0, 3)).toEqual(['Home', 'Holiday cabin', 'Hubs']);
    expect(searchCommands(buildCommands(source()), '', 2)).toHaveLength(2);
  });

  it('takes any text without throwing: regex characters, very long input, unicode', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2 * MAX_QUERY_LENGTH }), (query) => {
        const found = searchCommands(buildCommands(source()), query, 50);
        expect(found.length).toBeLessThanOrEqual(50);
      }),
    );
    expect(titles('.*(')).toEqual([]);
    expect(titles('lamp'.repeat(100))).toEqual([]);
  });

  it('finds one device among a thousand', () => {
    const devices = Array.from({ length: 1_000 }, (_, i) => light(`d${i}`, `Lamp ${i}`, i % 2 === 0, 0.5));
    const commands = buildCommands(source({ devices }));
    expect(commands.length).toBeGreaterThan(2_000);
    expect(searchCommands(commands, 'lamp 999 switch', 50).map((c) => c.title)).toEqual(['Lamp 999: On/off']);
  });

  it('lists the options of a choice, the current one marked', () => {
    const mode = thermostat.capabilitiesObj!.thermostat_mode as CapabilityState;
    expect(choiceCommands('t1', mode).map((c) => [c.title, c.detail, c.action])).toEqual([
      ['Heat', 'Current', { kind: 'set', deviceId: 't1', capabilityId: 'thermostat_mode', value: 'heat' }],
      ['Off', '', { kind: 'set', deviceId: 't1', capabilityId: 'thermostat_mode', value: 'off' }],
    ]);
  });
});

describe('a number typed in the palette', () => {
  const target = thermostat.capabilitiesObj!.target_temperature as CapabilityState;
  const dim = light('l1', 'Lamp', true, 0.5).capabilitiesObj!.dim as CapabilityState;

  it('is checked against the range and the step, in the units the sliders use', () => {
    expect(parseNumberEntry('21.5', target)).toEqual({ ok: true, value: 21.5 });
    expect(parseNumberEntry(' 22,5 ', target)).toEqual({ ok: true, value: 22.5 });
    expect(parseNumberEntry('40', target)).toEqual({ ok: false, message: 'Choose a value from 5 to 35 °C.' });
    expect(parseNumberEntry('21.3', target)).toEqual({ ok: false, message: 'Choose a value in steps of 0.5 °C.' });
    expect(parseNumberEntry('warm', target)).toEqual({ ok: false, message: '“warm” is not a number.' });
    expect(parseNumberEntry('', target)).toEqual({ ok: false, message: 'Type a number.' });
    expect(parseNumberEntry('35', dim)).toEqual({ ok: true, value: 0.35 }); // a dim level is typed in percent
    expect(parseNumberEntry('35 %', dim)).toEqual({ ok: true, value: 0.35 });
    expect(parseNumberEntry('150', dim)).toEqual({ ok: false, message: 'Choose a value from 0 to 100 %.' });
  });
});
