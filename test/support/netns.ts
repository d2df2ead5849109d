/**
 * Two network namespaces joined by a veth pair, as two machines on one LAN, for tests of what crosses
 * a network (mDNS). Needs root and `ip netns`; `whyNetnsUnavailable` says why not, so a test can skip
 * with the reason. Each namespace's whole network is its veth: multicast (224.0.0.251) leaves by the
 * route table, so each gets a default route through it.
 */
import { type ChildProcess, execFileSync, spawnSync } from 'node:child_process';

export interface NamespaceSide {
  ns: string;
  veth: string;
  address: string;
}

export function whyNetnsUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'creating network namespaces needs root';
  if (spawnSync('ip', ['netns', 'list']).status !== 0) return '`ip netns` is not available';
  return null;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * The names and addresses of a pair on `10.<subnet>.0.1` and `.2`; `prefix` keeps the names of two
 * suites apart (interface names have at most 15 characters: prefix of 3 plus 6 of the pid).
 */
export function namespacePair(prefix: string, subnet: number): readonly [NamespaceSide, NamespaceSide] {
  const tag = process.pid.toString(36).slice(-6);
  return [
    { ns: `${prefix}A${tag}`, veth: `${prefix}a${tag}`, address: `10.${subnet}.0.1` },
    { ns: `${prefix}B${tag}`, veth: `${prefix}b${tag}`, address: `10.${subnet}.0.2` },
  ] as const;
}

export function createNamespaces(sides: readonly [NamespaceSide, NamespaceSide]): void {
  for (const { ns } of sides) ip('netns', 'add', ns);
  ip('link', 'add', sides[0].veth, 'type', 'veth', 'peer', 'name', sides[1].veth);
  for (const { ns, veth, address } of sides) {
    ip('link', 'set', veth, 'netns', ns);
    ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', veth);
    ip('-n', ns, 'link', 'set', veth, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('-n', ns, 'route', 'add', 'default', 'dev', veth);
  }
}

export function deleteNamespaces(sides: readonly [NamespaceSide, NamespaceSide]): void {
  // Deleting a namespace deletes its end of the veth, and with it the pair.
  for (const { ns } of sides) spawnSync('ip', ['netns', 'del', ns]);
  spawnSync('ip', ['link', 'del', sides[0].veth]); // only there when setup failed before moving it into its namespace
}

/** `ip` arguments that run `node --import tsx <script> ...args` inside a namespace. */
export function inNamespace(ns: string, script: string, ...args: string[]): string[] {
  return ['netns', 'exec', ns, process.execPath, '--import', 'tsx', script, ...args];
}

/** Resolves with the first stdout line `match` accepts; rejects when the process exits first. */
export function lineFrom(child: ChildProcess, match: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      const found = lines.find(match);
      if (found !== undefined) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`the peer exited (${code}) before printing what the test waits for`)));
  });
}
