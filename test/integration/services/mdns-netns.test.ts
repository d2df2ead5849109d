/**
 * mDNS between two network namespaces joined by a veth pair, as between two machines on one LAN: a
 * hub announced in one is found, with its TXT id, by a browser in the other. Needs root and
 * `ip netns` (CI has both); elsewhere the test says why it skipped.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PEER = fileURLToPath(new URL('./mdns-netns-peer.ts', import.meta.url));
const HUB_ID = 'hub-netns-5c1d8e2f';
const HUB_PORT = '8080';
const tag = process.pid.toString(36).slice(-6);
const sides = [
  { ns: `hdA${tag}`, veth: `hdva${tag}`, address: '10.231.0.1' },
  { ns: `hdB${tag}`, veth: `hdvb${tag}`, address: '10.231.0.2' },
] as const;

function whyUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'creating network namespaces needs root';
  if (spawnSync('ip', ['netns', 'list']).status !== 0) return '`ip netns` is not available';
  return null;
}
const unavailable = whyUnavailable();
if (unavailable) console.log(`mDNS netns test skipped: ${unavailable}`);

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
/** `node --import tsx <peer>` inside a namespace. */
const inNamespace = (ns: string, ...args: string[]) => ['netns', 'exec', ns, process.execPath, '--import', 'tsx', PEER, ...args];

let advertiser: ChildProcess | undefined;

describe.skipIf(unavailable !== null)('mDNS across network namespaces', () => {
  beforeAll(() => {
    for (const { ns } of sides) ip('netns', 'add', ns);
    ip('link', 'add', sides[0].veth, 'type', 'veth', 'peer', 'name', sides[1].veth);
    for (const { ns, veth, address } of sides) {
      ip('link', 'set', veth, 'netns', ns);
      ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', veth);
      ip('-n', ns, 'link', 'set', veth, 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      // Multicast (224.0.0.251) leaves by the route table: the veth is this namespace's whole network.
      ip('-n', ns, 'route', 'add', 'default', 'dev', veth);
    }
  });

  afterAll(() => {
    advertiser?.kill('SIGKILL');
    // Deleting a namespace deletes its end of the veth, and with it the pair.
    for (const { ns } of sides) spawnSync('ip', ['netns', 'del', ns]);
    spawnSync('ip', ['link', 'del', sides[0].veth]); // only there when setup failed before moving it into its namespace
  });

  it('a browser in one namespace finds the hub announced in the other, with its TXT id', async () => {
    const started = spawn('ip', inNamespace(sides[0].ns, 'advertise', HUB_ID, HUB_PORT), { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    advertiser = started;
    await new Promise<void>((resolve, reject) => {
      started.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('advertising') && resolve());
      started.once('exit', (code) => reject(new Error(`the advertiser exited (${code}) before announcing`)));
    });

    const browse = spawnSync('ip', inNamespace(sides[1].ns, 'browse', HUB_ID), { cwd: process.cwd(), encoding: 'utf8', timeout: 20_000 });
    expect(browse.status, browse.stderr).toBe(0);
    const hub = JSON.parse(browse.stdout.trim().split('\n').at(-1)!);
    expect(hub).toEqual({ id: HUB_ID, addresses: [sides[0].address], port: Number(HUB_PORT), securePort: null });
  });
});
