import { describe, expect, it } from 'vitest';
import { createHubsStore } from '../../../../renderer/src/stores/hubs-store';
import { createOpenHubStore } from '../../../../renderer/src/stores/open-hub-store';
import {
  createPreferencesStore,
  DEFAULT_PREFERENCES,
  parsePreferences,
  PREFERENCES_KEY,
  type PreferencesStorage,
  rememberOpenHub,
} from '../../../../renderer/src/stores/preferences-store';
import { fakeBridge, flush, hub, ok } from '../fake-bridge';

/** An in-memory Storage; `failing` makes every call throw, as a disabled or full storage does. */
function memoryStorage(initial: Record<string, string> = {}, failing: { get?: boolean; set?: boolean } = {}) {
  const items = new Map(Object.entries(initial));
  let writes = 0;
  const storage: PreferencesStorage = {
    getItem: (key) => {
      if (failing.get) throw new Error('SecurityError');
      return items.get(key) ?? null;
    },
    setItem: (key, value) => {
      if (failing.set) throw new Error('QuotaExceededError');
      writes += 1;
      items.set(key, value);
    },
  };
  return { storage, stored: () => items.get(PREFERENCES_KEY), writes: () => writes };
}

const GOOD = { theme: 'dark', sidebarCollapsed: true, lastHubId: 'h2', lastView: 'webhooks', inspectorSplit: 0.35, energyPrice: 0.3, currency: 'GBP' } as const;

describe('preferences: defaults and persistence', () => {
  it('starts with the defaults when nothing is stored, and writes nothing until something changes', () => {
    const { storage, writes } = memoryStorage();
    const store = createPreferencesStore(storage);
    expect(store.getState()).toMatchObject({ theme: 'system', sidebarCollapsed: false, lastHubId: null, lastView: 'hubs' });
    expect(writes()).toBe(0);
  });

  it('keeps every change in storage, and a new store (the next start) reads it back', () => {
    const memory = memoryStorage();
    const store = createPreferencesStore(memory.storage);
    store.getState().setTheme('dark');
    store.getState().setSidebarCollapsed(true);
    store.getState().setLastHubId('h2');
    store.getState().setLastView('settings');
    store.getState().setInspectorSplit(0.3);
    store.getState().setEnergyPrice(0.28, 'USD');
    const expected = { theme: 'dark', sidebarCollapsed: true, lastHubId: 'h2', lastView: 'settings', inspectorSplit: 0.3, energyPrice: 0.28, currency: 'USD' };
    expect(JSON.parse(memory.stored()!)).toEqual(expected);

    const next = createPreferencesStore(memory.storage);
    expect(next.getState()).toMatchObject(expected);
  });

  it('keeps the inspector split within its bounds', () => {
    const store = createPreferencesStore(memoryStorage().storage);
    store.getState().setInspectorSplit(0.01);
    expect(store.getState().inspectorSplit).toBe(0.2);
    store.getState().setInspectorSplit(2);
    expect(store.getState().inspectorSplit).toBe(0.8);
    store.getState().setInspectorSplit(Number.NaN);
    expect(store.getState().inspectorSplit).toBe(0.5);
  });

  it('does not write when a setter leaves the value as it was', () => {
    const memory = memoryStorage({ [PREFERENCES_KEY]: JSON.stringify(GOOD) });
    const store = createPreferencesStore(memory.storage);
    store.getState().setTheme('dark');
    store.getState().setLastView('webhooks');
    expect(memory.writes()).toBe(0);
  });
});

describe('preferences: the price of a kWh', () => {
  it('is kept with its currency; a price out of range or an unknown currency is refused and nothing changes', () => {
    const { storage, stored } = memoryStorage();
    const store = createPreferencesStore(storage);
    expect(store.getState().setEnergyPrice(0.25, 'NOK')).toBe(true);
    expect(JSON.parse(stored()!)).toMatchObject({ energyPrice: 0.25, currency: 'NOK' });
    expect(store.getState().setEnergyPrice(-0.1, 'EUR')).toBe(false);
    expect(store.getState().setEnergyPrice(Number.NaN, 'EUR')).toBe(false);
    expect(store.getState().setEnergyPrice(1001, 'EUR')).toBe(false);
    expect(store.getState().setEnergyPrice(0.3, 'EURO')).toBe(false);
    expect(store.getState().setEnergyPrice(0.3, 'eur')).toBe(false);
    expect(store.getState()).toMatchObject({ energyPrice: 0.25, currency: 'NOK' });
    expect(store.getState().setEnergyPrice(null, 'EUR')).toBe(true);
    expect(createPreferencesStore(storage).getState()).toMatchObject({ energyPrice: null, currency: 'EUR' });
  });
});

describe('preferences: stored data is untrusted', () => {
  it.each([
    ['not JSON', '{theme: dark'],
    ['JSON null', 'null'],
    ['a number', '42'],
    ['a string', '"dark"'],
    ['an array', '["dark"]'],
    ['an empty object', '{}'],
  ])('falls back to every default for %s', (_case, text) => {
    expect(parsePreferences(text)).toEqual(DEFAULT_PREFERENCES);
    const store = createPreferencesStore(memoryStorage({ [PREFERENCES_KEY]: text }).storage);
    expect(store.getState()).toMatchObject(DEFAULT_PREFERENCES);
  });

  it.each([
    ['theme', { theme: 'purple' }, { theme: 'system' }],
    ['theme of another type', { theme: 1 }, { theme: 'system' }],
    ['sidebarCollapsed', { sidebarCollapsed: 'yes' }, { sidebarCollapsed: false }],
    ['lastHubId of another type', { lastHubId: { id: 'h2' } }, { lastHubId: null }],
    ['an empty lastHubId', { lastHubId: '' }, { lastHubId: null }],
    ['an oversized lastHubId', { lastHubId: 'h'.repeat(10_000) }, { lastHubId: null }],
    ['lastView', { lastView: 'admin' }, { lastView: 'hubs' }],
    ['inspectorSplit out of bounds', { inspectorSplit: 0.95 }, { inspectorSplit: 0.5 }],
    ['inspectorSplit of another type', { inspectorSplit: '0.3' }, { inspectorSplit: 0.5 }],
    ['negative energyPrice', { energyPrice: -1 }, { energyPrice: null }],
    ['energyPrice of another type', { energyPrice: '0.3' }, { energyPrice: null }],
    ['currency not ISO 4217', { currency: 'euro' }, { currency: 'EUR' }],
  ])('replaces a malformed %s by its default and keeps the other fields', (_case, bad, fallback) => {
    expect(parsePreferences(JSON.stringify({ ...GOOD, ...bad }))).toEqual({ ...GOOD, ...fallback });
  });

  it('ignores unknown fields (a newer version may have written them)', () => {
    expect(parsePreferences(JSON.stringify({ ...GOOD, fontSize: 'huge' }))).toEqual(GOOD);
  });

  it('works from memory when storage cannot be read or written', () => {
    const unreadable = createPreferencesStore(memoryStorage({}, { get: true }).storage);
    expect(unreadable.getState()).toMatchObject(DEFAULT_PREFERENCES);
    const unwritable = createPreferencesStore(memoryStorage({}, { set: true }).storage);
    expect(() => unwritable.getState().setTheme('light')).not.toThrow();
    expect(unwritable.getState().theme).toBe('light');
    const none = createPreferencesStore(null);
    none.getState().setSidebarCollapsed(true);
    expect(none.getState().sidebarCollapsed).toBe(true);
  });
});

describe('preferences: the last hub', () => {
  const HOME = hub('h1', 'Home');
  const CABIN = hub('h2', 'Cabin');

  async function start(stored: object, listed = [HOME, CABIN]) {
    const memory = memoryStorage({ [PREFERENCES_KEY]: JSON.stringify(stored) });
    const preferences = createPreferencesStore(memory.storage);
    const fake = fakeBridge();
    const hubs = createHubsStore(fake.bridge);
    const openHub = createOpenHubStore(fake.bridge, hubs, { preferredHubId: () => preferences.getState().lastHubId });
    rememberOpenHub(preferences, openHub);
    hubs.getState().setActive(true);
    fake.waiting('hubs.list')[0]!.resolve(ok(listed));
    await flush();
    return { memory, preferences, fake, hubs, openHub, opened: () => fake.argsOf('hubs.open').map((args) => args[0]) };
  }

  it('opens the remembered hub first when it is still listed', async () => {
    const { opened, openHub } = await start({ ...GOOD, lastHubId: 'h2' });
    expect(opened()).toEqual(['h2']);
    expect(openHub.getState().hubId).toBe('h2');
  });

  it('opens the first hub when the remembered one is no longer listed, and remembers that one', async () => {
    const { opened, preferences } = await start({ ...GOOD, lastHubId: 'gone' });
    expect(opened()).toEqual(['h1']);
    expect(preferences.getState().lastHubId).toBe('h1');
  });

  it('remembers the hub the user opens, and keeps it when the hub is closed by a sign-out', async () => {
    const { openHub, hubs, preferences, memory } = await start({ ...GOOD, lastHubId: null });
    openHub.getState().open('h2');
    expect(JSON.parse(memory.stored()!).lastHubId).toBe('h2');
    hubs.getState().setActive(false);
    expect(openHub.getState().hubId).toBeNull();
    expect(preferences.getState().lastHubId).toBe('h2');
  });
});
