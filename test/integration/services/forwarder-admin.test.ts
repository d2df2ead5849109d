/**
 * The forwarder's admin listener (docs/security.md, "The forwarder's admin listener"), over real sockets
 * on both stores: `/metrics`, `/readyz` and `/healthz` are answered there and nowhere on the intake port,
 * so an anonymous sender can no longer post `?hub=X` and read from `forwarder_routing_total` whether hub X
 * has a listener; the admin listener is on loopback unless told otherwise.
 */
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningForwarder } from '../../../services/forwarder/forwarder';
import { type ForwarderStores, forwarderStores, STORE_KINDS } from '../../support/forwarder-stores';
import { TestListener } from '../../support/webhook-listener';

const OPS_PATHS = ['/metrics', '/readyz', '/healthz'];

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function storesOf(kind: (typeof STORE_KINDS)[number]): Promise<ForwarderStores> {
  const stores = await forwarderStores(kind);
  cleanup.push(() => stores.close());
  return stores;
}

/** A forwarder with one listener registered for hub `home`, and an anonymous sender's POST. */
async function withRegisteredHub(stores: ForwarderStores, options: Parameters<ForwarderStores['start']>[0] = {}) {
  const webhook = await stores.store.create({ name: 'admin', ownerId: 'owner-1' });
  const forwarder = await stores.start(options);
  const listener = await TestListener.connect({ forwarderUrl: forwarder.url, webhookId: webhook.id, secret: webhook.secret, listenerId: 'l1', hubId: 'home' });
  cleanup.push(() => listener.close());
  const post = (hub: string) =>
    fetch(`${forwarder.url}/webhook/${webhook.id}?hub=${hub}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return { forwarder, listener, post };
}

const routed = async (forwarder: RunningForwarder, outcome: 'matched' | 'unmatched') => {
  const text = await (await fetch(`${forwarder.adminUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`forwarder_routing_total{option="query",outcome="${outcome}"}`));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe.each(STORE_KINDS)('on the %s store', (kind) => {
  it('the intake port answers /metrics, /readyz and /healthz as any unknown path (404), so a guess at a hub reads nothing back', async () => {
    const { forwarder, listener, post } = await withRegisteredHub(await storesOf(kind));
    // The guesses are accepted alike, registered hub or not (the intake never reveals registrations).
    expect((await post('home')).status).toBe(202);
    expect((await post('nobody')).status).toBe(202);
    await listener.nextMessage();

    const unknown = await fetch(`${forwarder.url}/no-such-path`);
    const unknownBody = await unknown.text();
    for (const path of OPS_PATHS) {
      const response = await fetch(`${forwarder.url}${path}`);
      const body = await response.text();
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      // Word for word the answer to any other path, apart from the path it names.
      expect(body.replace(path, '/no-such-path')).toBe(unknownBody);
      expect(body).not.toContain('forwarder_');
    }
    // The admin listener still counts both, for the monitoring.
    expect(await routed(forwarder, 'matched')).toBe(1);
    expect(await routed(forwarder, 'unmatched')).toBe(1);
  });

  it('the admin listener answers /metrics, /readyz and /healthz, and nothing else', async () => {
    const { forwarder } = await withRegisteredHub(await storesOf(kind));
    expect(forwarder.adminUrl).not.toBe(forwarder.url);
    expect(await (await fetch(`${forwarder.adminUrl}/healthz`)).json()).toEqual({ status: 'alive' });
    expect(await (await fetch(`${forwarder.adminUrl}/readyz`)).json()).toEqual({ status: 'ready' });
    const metrics = await fetch(`${forwarder.adminUrl}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await metrics.text()).toMatch(/^forwarder_listeners_connected 1$/m);
    // Not an intake: no webhook, no listener channel, no other method.
    expect((await fetch(`${forwarder.adminUrl}/webhook/wh_x`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${forwarder.adminUrl}/listen`)).status).toBe(404);
    const posted = await fetch(`${forwarder.adminUrl}/metrics`, { method: 'POST', body: '' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET');
  });
});

describe('a flood of scrapes on Redis', () => {
  it('does not run the pending-messages script once per scrape', async () => {
    const stores = await storesOf('redis');
    const { forwarder } = await withRegisteredHub(stores);
    // Every command Redis runs, in order, as MONITOR reports it; the pending script is the one run with no keys and no arguments.
    const client = new Redis(stores.redis!.url);
    const monitor = await client.monitor(); // a connection of its own
    cleanup.push(async () => {
      monitor.disconnect();
      client.disconnect();
    });
    let pendingScripts = 0;
    const markers = new Map<string, () => void>();
    monitor.on('monitor', (_time: string, args: string[]) => {
      const [command = '', first = '', second] = args;
      if (/^echo$/i.test(command)) markers.get(first)?.();
      else if (args.length === 3 && second === '0' && (/^evalsha$/i.test(command) || (/^eval$/i.test(command) && first.includes("'XLEN'")))) pendingScripts++;
    });
    /** Resolves once MONITOR has reported everything Redis ran before now (it reports in order). */
    const seenSoFar = async () => {
      const marker = `marker-${markers.size}`;
      const seen = new Promise<void>((resolve) => markers.set(marker, resolve));
      await client.echo(marker);
      await seen;
    };
    expect((await fetch(`${forwarder.adminUrl}/metrics`)).status).toBe(200);
    await seenSoFar();
    expect(pendingScripts).toBeGreaterThan(0); // the first scrape read Redis
    const before = pendingScripts;

    const SCRAPES = 30; // each asks for the pending messages and for their bytes: 60 scripts if every scrape ran its own
    const answers = await Promise.all(Array.from({ length: SCRAPES }, async () => (await fetch(`${forwarder.adminUrl}/metrics`)).text()));
    for (const text of answers) expect(text).toMatch(/^forwarder_pending_messages \d+$/m);
    await seenSoFar();
    expect(pendingScripts - before).toBeLessThan(SCRAPES);
  });
});

describe('where the admin listener listens', () => {
  /** An address of this machine that is not loopback, if it has one. */
  const outsideAddress = Object.values(networkInterfaces())
    .flat()
    .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;

  it('on loopback by default, even when the intake listens on every interface', async () => {
    const stores = await storesOf('memory');
    const forwarder = await stores.start({ host: '0.0.0.0' });
    const admin = new URL(forwarder.adminUrl);
    expect(admin.hostname).toBe('127.0.0.1');
    expect((await fetch(`${forwarder.adminUrl}/healthz`)).status).toBe(200);
    if (outsideAddress !== undefined) {
      // The intake is reached on the machine's other address; the admin port is not.
      expect(await connects(outsideAddress, Number(new URL(forwarder.url).port))).toBe(true);
      expect(await connects(outsideAddress, Number(admin.port))).toBe(false);
    }
  });

  it('on the host and port it is given', async () => {
    const stores = await storesOf('memory');
    const forwarder = await stores.start({ adminHost: '127.0.0.2' });
    expect(new URL(forwarder.adminUrl).hostname).toBe('127.0.0.2');
    expect((await fetch(`${forwarder.adminUrl}/readyz`)).status).toBe(200);
  });
});

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
