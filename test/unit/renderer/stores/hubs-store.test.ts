import { describe, expect, it } from 'vitest';
import { createHubsStore, isListed } from '../../../../renderer/src/stores/hubs-store';
import { fakeBridge, flush, hub, ok } from '../fake-bridge';

const HOME = hub('h1', 'Home');
const CABIN = hub('h2', 'Cabin');

async function activeStore(hubs = [HOME, CABIN]) {
  const fake = fakeBridge();
  const store = createHubsStore(fake.bridge);
  store.getState().setActive(true);
  fake.waiting('hubs.list')[0]!.resolve(ok(hubs));
  await flush();
  return { fake, store };
}

describe('hubs store', () => {
  it('does nothing until active', async () => {
    const fake = fakeBridge();
    const store = createHubsStore(fake.bridge);
    await store.getState().reload();
    expect(fake.calls).toHaveLength(0);
    expect(store.getState().list.status).toBe('idle');
  });

  it('loads the hubs when it becomes active', async () => {
    const fake = fakeBridge();
    const store = createHubsStore(fake.bridge);
    store.getState().setActive(true);
    expect(store.getState().list.status).toBe('loading');
    expect(fake.waiting('hubs.list')).toHaveLength(1);

    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await flush();
    expect(store.getState().list).toEqual({ status: 'loaded', hubs: [HOME, CABIN] });
    // Only the list: the open hub's devices are the open-hub store's.
    expect(fake.calls.map((call) => call.channel)).toEqual(['hubs.list']);
  });

  it('shows an empty account', async () => {
    const { store } = await activeStore([]);
    expect(store.getState().list).toEqual({ status: 'loaded', hubs: [] });
  });

  it('keeps a hub list error and retries with reload', async () => {
    const fake = fakeBridge();
    const store = createHubsStore(fake.bridge);
    store.getState().setActive(true);
    fake.waiting('hubs.list')[0]!.resolve({ ok: false, error: { code: 'cloud-unreachable', message: 'The cloud did not answer.' } });
    await flush();
    expect(store.getState().list).toEqual({ status: 'error', error: { code: 'cloud-unreachable', message: 'The cloud did not answer.' } });

    const retry = store.getState().reload();
    expect(store.getState().list.status).toBe('loading');
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME]));
    await retry;
    expect(store.getState().list).toEqual({ status: 'loaded', hubs: [HOME] });
  });

  it('keeps showing a loaded list while it reloads', async () => {
    const { fake, store } = await activeStore();
    const reloading = store.getState().reload();
    expect(store.getState().list).toEqual({ status: 'loaded', hubs: [HOME, CABIN] });
    fake.waiting('hubs.list')[0]!.resolve(ok([{ ...HOME, pinnedRoute: 'remote' }]));
    await reloading;
    expect(store.getState().list).toEqual({ status: 'loaded', hubs: [{ ...HOME, pinnedRoute: 'remote' }] });
  });

  it('an overtaken hub list answer is dropped', async () => {
    const { fake, store } = await activeStore();
    void store.getState().reload();
    void store.getState().reload();
    const [older, newer] = fake.waiting('hubs.list');
    newer!.resolve(ok([CABIN]));
    await flush();
    older!.resolve(ok([HOME, CABIN]));
    await flush();
    expect(store.getState().list).toEqual({ status: 'loaded', hubs: [CABIN] });
  });

  it('clears the list when it becomes inactive and drops answers that arrive afterwards', async () => {
    const { fake, store } = await activeStore();
    void store.getState().reload();
    const pending = fake.waiting('hubs.list')[0]!;
    store.getState().setActive(false);
    expect(store.getState()).toMatchObject({ active: false, list: { status: 'idle' } });

    pending.resolve(ok([HOME]));
    await flush();
    expect(store.getState().list).toEqual({ status: 'idle' });
  });

  it('says whether a hub is in the loaded list of an active store', async () => {
    const { fake, store } = await activeStore();
    expect(isListed(store.getState(), 'h2')).toBe(true);
    expect(isListed(store.getState(), 'nope')).toBe(false);
    store.getState().setActive(false);
    expect(isListed(store.getState(), 'h2')).toBe(false);
    store.getState().setActive(true);
    expect(isListed(store.getState(), 'h2')).toBe(false); // loading
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME]));
    await flush();
    expect(isListed(store.getState(), 'h1')).toBe(true);
  });

  it('keeps the names of the last list across a sign-out, and takes the next list’s names instead', async () => {
    const { fake, store } = await activeStore();
    store.getState().setActive(false);
    expect(store.getState().list).toEqual({ status: 'idle' });
    expect(store.getState().names).toEqual(
      new Map([
        ['h1', 'Home'],
        ['h2', 'Cabin'],
      ]),
    );

    store.getState().setActive(true);
    fake.waiting('hubs.list')[0]!.resolve(ok([hub('h1', 'Home, renamed')]));
    await flush();
    expect(store.getState().names).toEqual(new Map([['h1', 'Home, renamed']])); // bounded by one list

    void store.getState().reload();
    fake.waiting('hubs.list')[0]!.resolve({ ok: false, error: { code: 'cloud-unreachable', message: 'The cloud did not answer.' } });
    await flush();
    expect(store.getState().names.get('h1')).toBe('Home, renamed'); // a failed list forgets nothing
  });
});
