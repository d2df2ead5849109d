import { describe, expect, it } from 'vitest';
import { DeviceMapSchema } from '../../../../common/wire';
import { createDemoHome } from '../../../../services/hub/demo-home';

describe('demo homes', () => {
  it('has the same device ids on every start', () => {
    expect(Object.keys(createDemoHome('home').devices())).toEqual(Object.keys(createDemoHome('home').devices()));
    expect(Object.keys(createDemoHome('home').devices())[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('builds a valid device map: home with ≥20 devices in ≥6 zones, cabin with 6–10', () => {
    const home = Object.values(DeviceMapSchema.parse(createDemoHome('home').devices()));
    expect(home.length).toBeGreaterThanOrEqual(20);
    expect(new Set(home.map((d) => d.zone)).size).toBeGreaterThanOrEqual(6);
    const cabin = Object.values(DeviceMapSchema.parse(createDemoHome('cabin').devices()));
    expect(cabin.length).toBeGreaterThanOrEqual(6);
    expect(cabin.length).toBeLessThanOrEqual(10);
    const homeIds = new Set(home.map((d) => d.id));
    expect(cabin.some((d) => homeIds.has(d.id))).toBe(false);
  });

  it('keeps values within their capability ranges', () => {
    for (const device of Object.values(createDemoHome('home').devices())) {
      for (const cap of Object.values(device.capabilitiesObj ?? {})) {
        if (cap.type === 'number') {
          expect(typeof cap.value).toBe('number');
          if (cap.min !== undefined) expect(cap.value as number).toBeGreaterThanOrEqual(cap.min);
          if (cap.max !== undefined) expect(cap.value as number).toBeLessThanOrEqual(cap.max);
        }
        if (cap.type === 'enum') expect(cap.values?.map((v) => v.id)).toContain(cap.value);
        if (cap.type === 'boolean') expect(typeof cap.value).toBe('boolean');
      }
    }
  });

  it('hands out copies: callers cannot change the hub’s state', () => {
    const home = createDemoHome('home');
    const [id] = Object.keys(home.devices());
    home.devices()[id!]!.name = 'changed';
    expect(home.device(id!)?.name).not.toBe('changed');
    expect(home.device('nope')).toBeUndefined();
  });
});
