import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBridge, type Transport } from '../../../common/contract-bridge';
import type { EventName, HubSnapshot } from '../../../common/ipc-contract';
import { LOST_PAGES_MESSAGE, SNAPSHOT_PAGE_DEVICES, SNAPSHOT_PAGE_EVENT, toWireEvents, type WireEvent } from '../../../common/snapshot-pages';
import { device, snapshot } from '../../support/hub-snapshots';

const homeWith = (count: number) =>
  snapshot(
    'h1',
    Array.from({ length: count }, (_, i) => device(`d${i}`, `Device ${i}`, { onoff: i % 2 === 0 })),
  );

/** A bridge over a transport that delivers wire events as a host sends them; returns what the listener saw. */
function bridgeReceiving() {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const transport: Transport = {
    invoke: async () => ({ ok: true, value: undefined }),
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  const received: HubSnapshot[] = [];
  const stop = createBridge(transport).on('hubs.snapshot' as EventName, (payload) => received.push(payload as HubSnapshot));
  const deliver = (events: WireEvent[]) =>
    events.forEach(({ name, payload }) => listeners.get(name)?.forEach((listener) => listener(structuredClone(payload))));
  const listening = () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0);
  return { received, deliver, stop, listening };
}

afterEach(() => vi.restoreAllMocks());

describe('toWireEvents', () => {
  it('sends a large snapshot as pages of at most SNAPSHOT_PAGE_DEVICES, then the snapshot with the last page', () => {
    const home = homeWith(1_000);
    const wire = toWireEvents('hubs.snapshot', home);
    expect(wire.map((event) => event.name)).toEqual([...Array(9).fill(SNAPSHOT_PAGE_EVENT), 'hubs.snapshot']);
    expect(wire.slice(0, 9).map((event) => (event.payload as { index: number; devices: unknown[] }).index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const last = wire[9]!.payload as Extract<HubSnapshot, { status: 'loaded' }>;
    expect(last.pagesBefore).toBe(9);
    expect(last.devices.devices.map((d) => d.id)).toEqual(home.status === 'loaded' ? home.devices.devices.slice(900).map((d) => d.id) : []);
    expect(home.status === 'loaded' && home.devices.devices).toHaveLength(1_000); // the core's snapshot is not changed
  });

  it('passes other events, small snapshots and failed reads through as they are', () => {
    const small = homeWith(SNAPSHOT_PAGE_DEVICES);
    const failed: HubSnapshot = { status: 'error', hubId: 'h1', error: { code: 'hub-unreachable', message: 'gone' } };
    expect(toWireEvents('hubs.snapshot', small)).toEqual([{ name: 'hubs.snapshot', payload: small }]);
    expect(toWireEvents('hubs.snapshot', failed)).toEqual([{ name: 'hubs.snapshot', payload: failed }]);
    expect(toWireEvents('session.changed', { x: 1 })).toEqual([{ name: 'session.changed', payload: { x: 1 } }]);
  });
});

describe('the bridge puts a paged snapshot back together', () => {
  it('gives the listener the whole snapshot, in order, for any number of devices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 450 }), (count) => {
        const home = homeWith(count);
        const { received, deliver } = bridgeReceiving();
        deliver(toWireEvents('hubs.snapshot', home));
        expect(received).toEqual([home]);
      }),
      { numRuns: 40 },
    );
  });

  it('turns a snapshot with a page missing into an error the user can retry, never a partial grid', () => {
    const { received, deliver } = bridgeReceiving();
    const wire = toWireEvents('hubs.snapshot', homeWith(350));
    deliver([wire[0]!, wire[2]!, wire[3]!]); // page 1 lost
    expect(received).toEqual([{ status: 'error', hubId: 'h1', error: { code: 'internal', message: LOST_PAGES_MESSAGE } }]);
  });

  it('refuses a page that does not fit the contract, so its snapshot fails too', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { received, deliver } = bridgeReceiving();
    const wire = toWireEvents('hubs.snapshot', homeWith(250));
    deliver([wire[0]!, { name: SNAPSHOT_PAGE_EVENT, payload: { hubId: 'h1', index: 1, devices: [{ id: '' }] } }, wire[2]!]);
    expect(received[0]).toMatchObject({ status: 'error', error: { message: LOST_PAGES_MESSAGE } });
    expect(console.warn).toHaveBeenCalledWith(`hubdesk: dropped a malformed ${SNAPSHOT_PAGE_EVENT} event`);
  });

  it('drops the pages of a snapshot the link cut off, when a new snapshot begins', () => {
    const { received, deliver } = bridgeReceiving();
    const cut = toWireEvents('hubs.snapshot', homeWith(300)).slice(0, 2);
    const small = homeWith(3);
    const large = homeWith(201);
    deliver([...cut, ...toWireEvents('hubs.snapshot', small), ...cut, ...toWireEvents('hubs.snapshot', large)]);
    expect(received).toEqual([small, large]);
  });

  it("refuses pages of another hub's snapshot", () => {
    const { received, deliver } = bridgeReceiving();
    const other = toWireEvents('hubs.snapshot', { ...homeWith(150), hubId: 'h2' } as HubSnapshot);
    const mine = toWireEvents('hubs.snapshot', homeWith(150));
    deliver([other[0]!, mine[1]!]);
    expect(received[0]).toMatchObject({ status: 'error', hubId: 'h1' });
  });

  it('stops listening for pages and snapshots together', () => {
    const { stop, listening } = bridgeReceiving();
    expect(listening()).toBe(2);
    stop();
    expect(listening()).toBe(0);
  });
});
