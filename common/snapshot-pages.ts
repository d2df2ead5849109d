/**
 * A hub's snapshot crosses from main to the window in pages (docs/benchmarks.md, "First render in steps"). A 1,000-device home is a
 * message of about 700 KB; checking it against the contract in the window took some 70 ms in one task,
 * before anything was drawn. The hosts send the devices beyond the last page first, as
 * `hubs.snapshotPage` messages of at most SNAPSHOT_PAGE_DEVICES devices, each its own task to parse and
 * check; the `hubs.snapshot` that follows carries the last page and how many came before it. The bridge
 * (`createBridge`) puts them back together, so the stores only ever see whole snapshots.
 *
 * The link keeps the order of messages. A page missing or out of place (the link dropped halfway and a
 * new snapshot began) turns the snapshot into an error the user can retry, never into a partial grid.
 */
import { z } from 'zod';
import type { HubSnapshot } from './ipc-contract';
import { DeviceSchema } from './wire';

export const SNAPSHOT_PAGE_DEVICES = 100;
/** Not an event of the contract: only hosts send it and only the bridge reads it. */
export const SNAPSHOT_PAGE_EVENT = 'hubs.snapshotPage';

export const SnapshotPageSchema = z.object({
  hubId: z.string(),
  index: z.number().int().nonnegative(),
  devices: z.array(DeviceSchema).min(1).max(SNAPSHOT_PAGE_DEVICES),
});
export type SnapshotPage = z.infer<typeof SnapshotPageSchema>;

export type WireEvent = { name: string; payload: unknown };

/** What a host sends for one event of the core: the event itself, or a snapshot's pages then the snapshot. */
export function toWireEvents(name: string, payload: unknown): WireEvent[] {
  if (name !== 'hubs.snapshot') return [{ name, payload }];
  const snapshot = payload as HubSnapshot;
  if (snapshot.status !== 'loaded' || snapshot.devices.devices.length <= SNAPSHOT_PAGE_DEVICES) return [{ name, payload }];
  const devices = snapshot.devices.devices;
  const lastStart = Math.floor((devices.length - 1) / SNAPSHOT_PAGE_DEVICES) * SNAPSHOT_PAGE_DEVICES;
  const pages: WireEvent[] = [];
  for (let start = 0; start < lastStart; start += SNAPSHOT_PAGE_DEVICES) {
    const page: SnapshotPage = { hubId: snapshot.hubId, index: pages.length, devices: devices.slice(start, start + SNAPSHOT_PAGE_DEVICES) };
    pages.push({ name: SNAPSHOT_PAGE_EVENT, payload: page });
  }
  const last: HubSnapshot = { ...snapshot, pagesBefore: pages.length, devices: { ...snapshot.devices, devices: devices.slice(lastStart) } };
  return [...pages, { name, payload: last }];
}

export const LOST_PAGES_MESSAGE = "Part of this hub's device list was lost on its way to the window. Try again.";

/**
 * Collects the pages of the next snapshot (each already checked against SnapshotPageSchema) and joins
 * them with it. A snapshot that was not paged passes through.
 */
export function createSnapshotAssembler() {
  let pages: SnapshotPage[] = [];
  let broken = false;
  return {
    page(page: SnapshotPage): void {
      if (page.index === 0) [pages, broken] = [[], false];
      if (page.index !== pages.length || (pages.length > 0 && pages[0]!.hubId !== page.hubId)) broken = true;
      pages.push(page);
    },
    finish(snapshot: HubSnapshot): HubSnapshot {
      const [received, wasBroken] = [pages, broken];
      [pages, broken] = [[], false];
      if (snapshot.status !== 'loaded') return snapshot;
      const { pagesBefore = 0, ...whole } = snapshot;
      if (pagesBefore === 0) return whole; // pages left over from a sequence the link cut are dropped
      if (wasBroken || received.length !== pagesBefore || received.some((page) => page.hubId !== snapshot.hubId)) {
        return { status: 'error', hubId: snapshot.hubId, error: { code: 'internal', message: LOST_PAGES_MESSAGE } };
      }
      return { ...whole, devices: { ...whole.devices, devices: [...received.flatMap((page) => page.devices), ...whole.devices.devices] } };
    },
  };
}
