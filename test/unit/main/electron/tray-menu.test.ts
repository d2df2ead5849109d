import { describe, expect, it } from 'vitest';
import type { OpenHubSummary, SummaryFavourite } from '../../../../main/core/hubs/open-hub-model';
import {
  buildTrayView,
  cleanName,
  MAX_FAVOURITES,
  MAX_FLOWS,
  MAX_LABEL_LENGTH,
  MAX_TOOLTIP_LENGTH,
  MORE_LABEL,
  OPEN_LABEL,
  QUIT_LABEL,
  sameTrayView,
  type TrayItem,
} from '../../../../main/electron/tray-menu';

const NO_HUB: OpenHubSummary = { hubId: null, hubName: null, live: { kind: 'closed' }, favourites: [], flows: [] };

function summary(overrides: Partial<OpenHubSummary> = {}): OpenHubSummary {
  return { hubId: 'hub-1', hubName: 'Home', live: { kind: 'live', since: 'x' }, favourites: [], flows: [], ...overrides };
}

function favourite(deviceId: string, overrides: Partial<SummaryFavourite> = {}): SummaryFavourite {
  return { deviceId, name: `Lamp ${deviceId}`, on: false, canToggle: true, ...overrides };
}

const labels = (items: TrayItem[]) => items.map((item) => (item.type === 'separator' ? '---' : item.label));
const clickable = (items: TrayItem[]) => items.filter((item) => item.type !== 'separator' && item.enabled);

describe('tray view', () => {
  it('with no hub open: says so, and offers only Open and Quit', () => {
    const view = buildTrayView(NO_HUB, 'signed-in');
    expect(view.tooltip).toBe('Hubdesk — No hub open');
    expect(labels(view.items)).toEqual(['No hub open', '---', OPEN_LABEL, QUIT_LABEL]);
    expect(view.items[0]).toMatchObject({ type: 'normal', enabled: false });
    expect(view.items[0]).not.toHaveProperty('action');
    expect(view.items.slice(-2)).toEqual([
      { type: 'normal', label: OPEN_LABEL, enabled: true, action: { kind: 'open' } },
      { type: 'normal', label: QUIT_LABEL, enabled: true, action: { kind: 'quit' } },
    ]);
  });

  it('signed out: says so and lists no favourites or flows, even from a summary not yet cleared', () => {
    const stale = summary({ favourites: [favourite('a')], flows: [{ id: 'f', name: 'Good night' }] });
    const view = buildTrayView(stale, 'signed-out');
    expect(view.tooltip).toBe('Hubdesk — Signed out');
    expect(labels(view.items)).toEqual(['Signed out', '---', OPEN_LABEL, QUIT_LABEL]);
  });

  it('live: the tooltip and the first, disabled line name the hub and its state', () => {
    const view = buildTrayView(summary(), 'signed-in');
    expect(view.tooltip).toBe('Hubdesk — Home is live');
    expect(view.items[0]).toEqual({ type: 'normal', label: 'Home is live', enabled: false });
  });

  it.each([
    [summary({ live: { kind: 'connecting' } }), 'Connecting to Home…'],
    [summary({ live: { kind: 'reconnecting', attempt: 2, nextAttemptAt: 0, cause: 'hub-not-answering' } }), 'Home is not responding — Hubdesk keeps trying'],
    [summary({ live: { kind: 'no-realtime' } }), 'Home doesn’t send live updates — reload to see changes'],
    [summary({ live: { kind: 'reconnecting', attempt: 1, nextAttemptAt: 0, cause: 'offline' } }), 'This computer is offline — Hubdesk keeps trying'],
    [summary({ hubName: null }), 'hub-1 is live'],
  ])('states the connection: %j → %s', (state, line) => {
    const view = buildTrayView(state, 'signed-in');
    expect(view.tooltip).toBe(`Hubdesk — ${line}`);
    expect(view.items[0]).toMatchObject({ label: line, enabled: false });
  });

  it('before the sign-in is known, the summary alone decides', () => {
    expect(buildTrayView(summary(), 'unknown').tooltip).toBe('Hubdesk — Home is live');
  });

  it('access refused, with favourites: still lists them as the core says they can be switched', () => {
    const view = buildTrayView(summary({ live: { kind: 'hub-refused' }, favourites: [favourite('a', { on: true })] }), 'signed-in');
    expect(view.items).toContainEqual({
      type: 'checkbox',
      label: 'Lamp a',
      checked: true,
      enabled: true,
      action: { kind: 'toggle', hubId: 'hub-1', deviceId: 'a', name: 'Lamp a', value: false },
    });
  });

  it('favourites are checkboxes under a header, in order; the action sets the opposite of what is shown', () => {
    const view = buildTrayView(summary({ favourites: [favourite('a', { on: true }), favourite('b', { on: false })] }), 'signed-in');
    expect(labels(view.items)).toEqual(['Home is live', '---', 'Favourites', 'Lamp a', 'Lamp b', '---', OPEN_LABEL, QUIT_LABEL]);
    expect(view.items[2]).toEqual({ type: 'normal', label: 'Favourites', enabled: false });
    expect(view.items[3]).toEqual({
      type: 'checkbox',
      label: 'Lamp a',
      checked: true,
      enabled: true,
      action: { kind: 'toggle', hubId: 'hub-1', deviceId: 'a', name: 'Lamp a', value: false },
    });
    expect(view.items[4]).toMatchObject({ type: 'checkbox', checked: false, action: { kind: 'toggle', deviceId: 'b', value: true } });
  });

  it('read-only: favourites are shown with their state but disabled and without an action', () => {
    const view = buildTrayView(summary({ favourites: [favourite('a', { on: true, canToggle: false }), favourite('b', { canToggle: false })] }), 'signed-in');
    const switches = view.items.filter((item) => item.type === 'checkbox');
    expect(switches).toEqual([
      { type: 'checkbox', label: 'Lamp a', checked: true, enabled: false },
      { type: 'checkbox', label: 'Lamp b', checked: false, enabled: false },
    ]);
    expect(clickable(view.items).map((item) => item.type !== 'separator' && item.label)).toEqual([OPEN_LABEL, QUIT_LABEL]);
  });

  it('a favourite without an on/off switch is disabled and says why, even if the core calls it togglable', () => {
    const view = buildTrayView(summary({ favourites: [favourite('t', { name: 'Thermostat', on: null, canToggle: true })] }), 'signed-in');
    expect(view.items).toContainEqual({ type: 'checkbox', label: 'Thermostat (no switch)', checked: false, enabled: false });
  });

  it('flows are listed to start under their header; with none there is no flow section at all', () => {
    const flows = buildTrayView(
      summary({
        flows: [
          { id: 'f1', name: 'Good night' },
          { id: 'f2', name: 'Away' },
        ],
      }),
      'signed-in',
    );
    expect(labels(flows.items)).toEqual(['Home is live', '---', 'Start a flow', 'Good night', 'Away', '---', OPEN_LABEL, QUIT_LABEL]);
    expect(flows.items[3]).toEqual({
      type: 'normal',
      label: 'Good night',
      enabled: true,
      action: { kind: 'flow', hubId: 'hub-1', flowId: 'f1', name: 'Good night' },
    });

    const none = buildTrayView(summary({ favourites: [favourite('a')], flows: [] }), 'signed-in');
    expect(labels(none.items)).not.toContain('Start a flow');
    expect(none.items.filter((item) => item.type === 'separator')).toHaveLength(2);
  });

  it('1,000 favourites: the first ten, then "More in Hubdesk…", which opens the window', () => {
    const many = Array.from({ length: 1000 }, (_, i) => favourite(`d${i}`));
    const view = buildTrayView(summary({ favourites: many }), 'signed-in');
    const switches = view.items.filter((item) => item.type === 'checkbox');
    expect(switches).toHaveLength(MAX_FAVOURITES);
    expect(switches.map((item) => item.label)).toEqual(many.slice(0, MAX_FAVOURITES).map((f) => f.name));
    const more = view.items[view.items.indexOf(switches.at(-1)!) + 1];
    expect(more).toEqual({ type: 'normal', label: MORE_LABEL, enabled: true, action: { kind: 'open' } });
    expect(view.items.length).toBeLessThan(20);
  });

  it('exactly the cap: no "More" line; one over: "More"', () => {
    const at = buildTrayView(summary({ favourites: Array.from({ length: MAX_FAVOURITES }, (_, i) => favourite(`d${i}`)) }), 'signed-in');
    expect(labels(at.items)).not.toContain(MORE_LABEL);
    const over = buildTrayView(summary({ flows: Array.from({ length: MAX_FLOWS + 1 }, (_, i) => ({ id: `f${i}`, name: `Flow ${i}` })) }), 'signed-in');
    expect(labels(over.items).filter((label) => label === MORE_LABEL)).toHaveLength(1);
    expect(labels(over.items)).not.toContain(`Flow ${MAX_FLOWS}`);
  });

  it('long names are cut with an ellipsis; the tooltip stays within what Windows shows', () => {
    const long = 'Living room ceiling spots above the big sofa by the window';
    const view = buildTrayView(
      summary({ hubName: 'H'.repeat(500), favourites: [favourite('a', { name: long })], flows: [{ id: 'f', name: 'F'.repeat(300) }] }),
      'signed-in',
    );
    const item = view.items.find((i) => i.type === 'checkbox');
    expect(item?.type === 'checkbox' && item.label).toBe(`${long.slice(0, MAX_LABEL_LENGTH - 1).trimEnd()}…`);
    for (const i of view.items) if (i.type !== 'separator') expect([...i.label].length).toBeLessThanOrEqual(MAX_LABEL_LENGTH + 20);
    expect(view.tooltip.length).toBeLessThanOrEqual(MAX_TOOLTIP_LENGTH);
    expect(view.items[0]).toMatchObject({ label: `${'H'.repeat(29)}… is live` });
  });

  it('a long sentence about a long-named hub is cut in the tooltip too', () => {
    const view = buildTrayView(summary({ hubName: 'H'.repeat(500), live: { kind: 'hub-refused' } }), 'signed-in');
    expect(view.tooltip.length).toBeLessThanOrEqual(MAX_TOOLTIP_LENGTH);
    expect(view.tooltip.startsWith(`Hubdesk — ${'H'.repeat(29)}… refused Hubdesk access`)).toBe(true);
  });

  it('names from the hub cannot break the menu: control and bidi-override characters go, & is literal, empty names are named', () => {
    const view = buildTrayView(
      summary({ hubName: 'Home\nSweet', favourites: [favourite('a', { name: 'Tom & Jerry\u0000\u202e' }), favourite('b', { name: ' \t ' })] }),
      'signed-in',
    );
    expect(view.tooltip).toBe('Hubdesk — Home Sweet is live');
    expect(labels(view.items)).toContain('Tom && Jerry');
    expect(labels(view.items)).toContain('Unnamed');
    const toggle = view.items.find((item) => item.type === 'checkbox' && item.label.startsWith('Tom'));
    // The name in the action (for a notification, not a menu) keeps a single ampersand.
    expect(toggle?.type === 'checkbox' && toggle.action).toMatchObject({ name: 'Tom & Jerry' });
  });

  it('cleanName cuts by characters, never in the middle of a surrogate pair', () => {
    expect(cleanName('💡'.repeat(50), 5)).toBe('💡💡💡💡…');
    expect(cleanName('short', 5)).toBe('short');
  });

  it('sameTrayView: equal for the same summary, different when anything shown changes', () => {
    const base = summary({ favourites: [favourite('a')] });
    expect(sameTrayView(buildTrayView(base, 'signed-in'), buildTrayView(structuredClone(base), 'signed-in'))).toBe(true);
    expect(sameTrayView(buildTrayView(base, 'signed-in'), buildTrayView(summary({ favourites: [favourite('a', { on: true })] }), 'signed-in'))).toBe(false);
    expect(sameTrayView(buildTrayView(base, 'signed-in'), buildTrayView(base, 'signed-out'))).toBe(false);
  });
});
