/**
 * The attack of docs/security.md, "Route trust", with a real mDNS announcement between two network namespaces (two
 * machines on one LAN): in one, a device announces `_hub._tcp` with the user's hub id and answers as
 * that hub; in the other, the reference stack and an app core signed in to it hear the announcement.
 * The app must send the impostor no credential and still open the hub over its legitimate (remote)
 * route. Needs root and `ip netns` (CI has both); elsewhere the test says why it skipped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteOutcome } from '../../../common/ipc-contract';
import { UNTRUSTED_CERTIFICATE } from '../../../main/core/shared/http';
import { createNamespaces, deleteNamespaces, inNamespace, lineFrom, namespacePair, whyNetnsUnavailable } from '../../support/netns';

const PEER = fileURLToPath(new URL('./route-trust-netns-peer.ts', import.meta.url));
/** The stack's cloud-hosted hub: reachable only remotely, so a LAN route looks like an improvement. */
const CABIN_ID = 'hub-8b2e5d7a1c4f9e63';
const sides = namespacePair('hdt', 232);

const unavailable = whyNetnsUnavailable();
if (unavailable) console.log(`route-trust netns test skipped: ${unavailable}`);

let impostor: ChildProcess | undefined;
const credentials: string[] = [];

describe.skipIf(unavailable !== null)('an mDNS impostor of the user’s hub', () => {
  beforeAll(() => createNamespaces(sides));
  afterAll(() => {
    impostor?.kill('SIGKILL');
    deleteNamespaces(sides);
  });

  it('receives no credential, and the app opens the hub over its remote route', async () => {
    impostor = spawn('ip', inNamespace(sides[0].ns, PEER, 'impostor', CABIN_ID), { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    impostor.stdout!.on('data', (chunk: Buffer) =>
      credentials.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((line) => line.startsWith('credential ')),
      ),
    );
    await lineFrom(impostor, (line) => line === 'ready');

    const app = spawn('ip', inNamespace(sides[1].ns, PEER, 'app', CABIN_ID, sides[0].address), { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    const result = JSON.parse(await lineFrom(app, (line) => line.startsWith('{'))) as { route: string; routeOutcomes: RouteOutcome[]; devices: number };

    expect(result.route).toBe('remote');
    expect(result.devices).toBeGreaterThan(0);
    // The announced plain port is no route; the "secure" one names the hub, from a CA the app does not trust.
    expect(result.routeOutcomes).toEqual([
      {
        kind: 'local-secure',
        outcome: 'refused',
        reason: UNTRUSTED_CERTIFICATE,
        heardAt: expect.stringMatching(new RegExp(`^${sides[0].address.replaceAll('.', '\\.')}:\\d+$`)),
      },
      { kind: 'remote', outcome: 'answered', rttMs: expect.any(Number) },
    ]);
    expect(credentials).toEqual([]);
  }, 60_000);
});
