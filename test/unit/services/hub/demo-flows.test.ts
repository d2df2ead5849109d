import { describe, expect, it } from 'vitest';
import { FlowMapSchema } from '../../../../common/hub-control';
import { createDemoFlows } from '../../../../services/hub/demo-flows';
import { createDemoHome, type HomeChange } from '../../../../services/hub/demo-home';
import { grants } from '../../../../services/hub/scope-grants';

const setup = (kind: 'home' | 'cabin' = 'home') => {
  const home = createDemoHome(kind);
  const flows = createDemoFlows(home, () => Date.parse('2030-01-01T00:00:00Z'));
  const byName = (name: string) => Object.values(flows.list()).find((flow) => flow.name === name)!;
  return { home, flows, byName };
};

describe('demo flows', () => {
  it('lists valid flows on each home, one of them disabled, with ids stable across starts', () => {
    for (const kind of ['home', 'cabin'] as const) {
      const list = FlowMapSchema.parse(setup(kind).flows.list());
      expect(Object.keys(list).length).toBeGreaterThanOrEqual(3);
      expect(Object.values(list).filter((flow) => !flow.enabled)).toHaveLength(1);
      expect(Object.keys(list)).toEqual(Object.keys(setup(kind).flows.list()));
    }
    expect(Object.values(setup().flows.list()).map((flow) => flow.name)).toEqual(expect.arrayContaining(['Good night', 'Movie time', 'Leaving home']));
  });

  it('"Good night" turns every light off and locks the door, as hub-made changes', () => {
    const { home, flows, byName } = setup();
    const changes: HomeChange[] = [];
    home.onChange((change) => changes.push(change));
    expect(flows.trigger(byName('Good night').id)).toEqual({ ok: true, result: { id: byName('Good night').id, triggeredAt: '2030-01-01T00:00:00.000Z' } });
    const devices = Object.values(home.devices());
    for (const light of devices.filter((device) => device.class === 'light')) expect(light.capabilitiesObj!.onoff!.value).toBe(false);
    expect(devices.find((device) => device.class === 'lock')!.capabilitiesObj!.locked!.value).toBe(true);
    expect(changes.length).toBeGreaterThan(5);
    expect(changes.every((change) => change.type === 'capability' && change.data.transactionId === null)).toBe(true);
  });

  it('"Movie time" dims the living room and closes its blinds, leaving other rooms alone', () => {
    const { home, flows, byName } = setup();
    flows.trigger(byName('Movie time').id);
    const devices = Object.values(home.devices());
    expect(devices.find((device) => device.name === 'Ceiling light')!.capabilitiesObj!.dim!.value).toBe(0.2);
    expect(devices.find((device) => device.name === 'Living room blinds')!.capabilitiesObj!.windowcoverings_set!.value).toBe(0);
    expect(devices.find((device) => device.name === 'Kitchen spots')!.capabilitiesObj!.dim!.value).toBe(1);
  });

  it('"Leaving home" switches off all that switches, except unavailable devices', () => {
    const { home, flows, byName } = setup();
    flows.trigger(byName('Leaving home').id);
    for (const device of Object.values(home.devices())) {
      const onoff = device.capabilitiesObj?.onoff;
      if (onoff && device.available !== false) expect(onoff.value).toBe(false);
    }
  });

  it('refuses a disabled flow (409) and an unknown one (404) without changing anything', () => {
    const { home, flows, byName } = setup();
    const before = home.devices();
    expect(flows.trigger(byName('Holiday lights').id)).toMatchObject({ ok: false, status: 409, error: 'flow_disabled' });
    expect(flows.trigger('nope')).toMatchObject({ ok: false, status: 404, error: 'unknown_flow' });
    expect(home.devices()).toEqual(before);
  });
});

describe('scopes', () => {
  it.each<[Parameters<typeof grants>[0], Parameters<typeof grants>[1], boolean]>([
    [['devices'], 'devices.readonly', true],
    [['devices.readonly'], 'devices', false],
    [['flow.start'], 'flow.readonly', true],
    [['flow.readonly'], 'flow.start', false],
    [['devices'], 'flow.readonly', false],
    [[], 'devices.readonly', false],
  ])('%j grants %s: %s', (scopes, required, expected) => {
    expect(grants(scopes, required)).toBe(expected);
  });
});
