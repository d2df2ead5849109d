/**
 * mDNS between two network namespaces joined by a veth pair, as between two machines on one LAN: a
 * hub announced in one is found, with its TXT id, by a browser in the other. Needs root and
 * `ip netns` (CI has both); elsewhere the test says why it skipped.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNamespaces, deleteNamespaces, inNamespace, lineFrom, namespacePair, whyNetnsUnavailable } from '../../support/netns';

const PEER = fileURLToPath(new URL('./mdns-netns-peer.ts', import.meta.url));
const HUB_ID = 'hub-netns-5c1d8e2f';
const HUB_PORT = '8080';
const sides = namespacePair('hdv', 231);

const unavailable = whyNetnsUnavailable();
if (unavailable) console.log(`mDNS netns test skipped: ${unavailable}`);

let advertiser: ChildProcess | undefined;

describe.skipIf(unavailable !== null)('mDNS across network namespaces', () => {
  beforeAll(() => createNamespaces(sides));

  afterAll(() => {
    advertiser?.kill('SIGKILL');
    deleteNamespaces(sides);
  });

  it('a browser in one namespace finds the hub announced in the other, with its TXT id', async () => {
    const started = spawn('ip', inNamespace(sides[0].ns, PEER, 'advertise', HUB_ID, HUB_PORT), { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    advertiser = started;
    await lineFrom(started, (line) => line === 'advertising');

    const browse = spawnSync('ip', inNamespace(sides[1].ns, PEER, 'browse', HUB_ID), { cwd: process.cwd(), encoding: 'utf8', timeout: 20_000 });
    expect(browse.status, browse.stderr).toBe(0);
    const hub = JSON.parse(browse.stdout.trim().split('\n').at(-1)!);
    expect(hub).toEqual({ id: HUB_ID, addresses: [sides[0].address], port: Number(HUB_PORT), securePort: null });
  });
});
