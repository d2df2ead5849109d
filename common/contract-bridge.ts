/**
 * The bridge over a transport (Electron IPC in the preload, the loopback WebSocket in the browser
 * host): the contract's verbs (common/ipc-contract.ts) as `bridge.<namespace>.<verb>()`, and its
 * events checked against their schemas, a paged snapshot put back together (common/snapshot-pages.ts).
 * Apart from the contract so that the contract does not import the paging that imports it.
 */
import type { z } from 'zod';
import type { Envelope } from './app-error';
import { type Bridge, type Channel, CHANNELS, eventContract, type EventName, HubSnapshotSchema, isEventName } from './ipc-contract';
import { createSnapshotAssembler, SNAPSHOT_PAGE_EVENT, SnapshotPageSchema } from './snapshot-pages';

export interface Transport {
  invoke(channel: Channel, args: unknown[]): Promise<Envelope<unknown>>;
  on(event: EventName | typeof SNAPSHOT_PAGE_EVENT, listener: (payload: unknown) => void): () => void;
}

/** Builds the verb object from a transport; used by the Electron preload and the browser-host client. */
export function createBridge(transport: Transport): Bridge {
  const verbs: Record<string, Record<string, (...args: unknown[]) => Promise<Envelope<unknown>>>> = {};
  for (const channel of CHANNELS) {
    const [ns, verb] = channel.split('.') as [string, string];
    verbs[ns] ??= {};
    verbs[ns][verb] = (...args: unknown[]) => transport.invoke(channel, args);
  }
  // Every event is checked against its schema once, here: the stores can trust what they are given.
  const on = (event: EventName, listener: (payload: unknown) => void) => {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
    const schema: z.ZodType = eventContract[event];
    const checked =
      <T>(name: string, check: z.ZodType<T>, take: (payload: T) => void) =>
      (payload: unknown) => {
        const parsed = check.safeParse(payload);
        if (parsed.success) take(parsed.data);
        else console.warn(`hubdesk: dropped a malformed ${name} event`);
      };
    if (event !== 'hubs.snapshot') return transport.on(event, checked(event, schema, listener));
    // A snapshot may arrive in pages, each checked in its own task (snapshot-pages.ts).
    const snapshots = createSnapshotAssembler();
    const stops = [
      transport.on(
        SNAPSHOT_PAGE_EVENT,
        checked(SNAPSHOT_PAGE_EVENT, SnapshotPageSchema, (page) => snapshots.page(page)),
      ),
      transport.on(
        event,
        checked(event, HubSnapshotSchema, (snapshot) => listener(snapshots.finish(snapshot))),
      ),
    ];
    return () => stops.forEach((stop) => stop());
  };
  return { ...verbs, on } as unknown as Bridge;
}
