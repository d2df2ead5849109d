/**
 * Drives the flood tests and benchmarks: the forwarder child (forwarder-process.ts) with a chosen heap,
 * its stats, and floods of large intake requests over real sockets.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import type { ForwarderStats } from '../../services/forwarder/forwarder';
import type { AddressLimits } from '../../services/shared/address-limits';
import { projectRoot } from '../e2e/support/processes';

/**
 * Per-address limits (address-limits.ts) set out of the way of a flood that stands for many senders but
 * comes from this one loopback address: the floods test other bounds. Still applied, so their cost is
 * paid; address-limits.test.ts tests the limits themselves.
 */
export const ONE_ADDRESS_FLOOD_LIMITS: Partial<AddressLimits> = {
  maxConnectionsPerAddress: 100_000,
  newConnectionsPerSecondPerAddress: 1_000_000,
  newConnectionBurstPerAddress: 100_000,
  maxRequestsPerAddress: 100_000,
};

export interface ForwarderChildInfo {
  url: string;
  webhooks: { flood: { id: string; secret: string }; other: { id: string; secret: string } };
}

export interface ChildStats {
  forwarder: ForwarderStats;
  memory: NodeJS.MemoryUsage;
}

export interface ForwarderChild {
  info: ForwarderChildInfo;
  child: ChildProcess;
  /** Resolves with the exit code (null: killed by a signal) when the process ends. */
  exited: Promise<number | null>;
  stats(): Promise<ChildStats>;
  stderr(): string;
  stop(): Promise<void>;
}

export interface ChildOptions {
  heapMb: number;
  legacy?: boolean;
  forwarderOptions?: Record<string, unknown>;
  legacyOptions?: Record<string, unknown>;
  /** State in this Redis (forwarder-process.ts): children given the same URL are instances of one deployment. */
  redisUrl?: string;
}

export async function startForwarderChild(options: ChildOptions): Promise<ForwarderChild> {
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${options.heapMb}`,
      '--expose-gc',
      ...(process.env.FORWARDER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      'test/support/forwarder-process.ts',
    ],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        LEGACY: options.legacy ? '1' : '0',
        FORWARDER_OPTIONS: JSON.stringify(options.forwarderOptions ?? {}),
        LEGACY_OPTIONS: JSON.stringify(options.legacyOptions ?? {}),
        REDIS_URL: options.redisUrl ?? '',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  // Writing a stats request to a child that just died must not crash the driver.
  child.stdin!.on('error', () => {});
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waiting: ((line: string) => void)[] = [];
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const line = lines.shift();
      if (line !== undefined) return resolve(line);
      waiting.push(resolve);
      void exited.then((code) => reject(new Error(`the forwarder child exited (${code}); stderr:\n${errors}`)));
    });
  const first = await nextLine();
  if (!first.startsWith('forwarder ')) throw new Error(`unexpected first line: ${first}`);
  return {
    info: JSON.parse(first.slice('forwarder '.length)) as ForwarderChildInfo,
    child,
    exited,
    async stats() {
      child.stdin!.write('stats\n');
      const line = await nextLine();
      return JSON.parse(line.slice('stats '.length)) as ChildStats;
    },
    stderr: () => errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A JSON body of about `bytes` bytes: `{"room": room, "pad": "xxx…"}`. */
export function paddedBody(room: string, bytes: number): string {
  return JSON.stringify({ room, pad: 'x'.repeat(Math.max(0, bytes - 30 - room.length)) });
}

export interface PostResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One intake POST over its own connection (no pooling: a flood is many concurrent connections), from
 * `localAddress` when given (another loopback address, e.g. 127.0.0.2: another sender to the server).
 */
export function postRaw(url: string, body: string, localAddress?: string): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `count` tasks with at most `concurrency` at once; resolves with their results in order. */
export async function pooled<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}
