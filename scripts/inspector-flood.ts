/**
 * Reproduces the inspector flood of docs/security.md, "Byte budgets" (the app part), and measures the fix: starts the reference stack in this
 * process and the browser host as its own process, registers the demo webhook over the bridge, POSTs
 * 1,100 bodies of 256 KiB to it, then asks for the inspector's snapshot. Prints the host's resident
 * memory along the way, how the snapshot went, and whether the host is still running.
 *
 *   npx tsx scripts/inspector-flood.ts            # 1,100 × 256 KiB
 *   FLOOD_COUNT=300 npx tsx scripts/inspector-flood.ts
 */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { startStack } from '../services/stack';
import { startProgram } from '../test/e2e/support/processes';
import { tempDir } from '../test/support/temp-dir';

const COUNT = Number(process.env.FLOOD_COUNT ?? 1100);
const BODY_BYTES = 256 * 1024;
const MiB = 1024 * 1024;

/** Resident memory of `pid` and its descendants (tsx runs the host in a child node process). */
function rssOf(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    let total = match ? Number(match[1]) * 1024 : 0;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    for (const child of children) total += rssOf(Number(child)) ?? 0;
    return total;
  } catch {
    return null; // the process is gone
  }
}

/** A JSON body of exactly `bytes` bytes that the demo webhook's key path (body.device.id) routes. */
export function floodBody(n: number, bytes = BODY_BYTES): string {
  const head = JSON.stringify({ device: { id: 'flood-1' }, n, pad: '' });
  return head.replace('"pad":""', `"pad":"${'x'.repeat(bytes - head.length)}"`);
}

async function main() {
  const stack = await startStack({ remoteLatencyMs: 0 });
  const host = startProgram('main/browser-host/bin.ts', ['--profile', tempDir('flood'), '--skip-build'], {
    HUBDESK_AUTH_URL: stack.info.auth_url,
    HUBDESK_CLIENT_ID: stack.info.client.id,
    HUBDESK_CLIENT_SECRET: stack.info.client.secret,
    HUBDESK_WEBHOOK_URL: stack.info.webhook_url,
    HUBDESK_OPEN_EXTERNAL: 'none',
  });
  const exited = new Promise<string>((resolve) => host.child.once('exit', (code, signal) => resolve(`exited with code ${code} signal ${signal}`)));
  const appUrl = new URL(await host.line('Hubdesk is running at '));
  const pid = host.child.pid!;
  const ws = new WebSocket(`ws://${appUrl.host}/bridge`, { origin: appUrl.origin, maxPayload: 2 ** 31 });
  let nextId = 1;
  const pending = new Map<number, (envelope: unknown) => void>();
  let eventBytes = 0;
  let events = 0;
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; id?: number; envelope?: unknown };
    if (message.type === 'result') pending.get(message.id!)?.(message.envelope);
    if (message.type !== 'event') return;
    events += 1;
    eventBytes += (data as Buffer).length;
  });
  const invoke = (channel: string, args: unknown[] = []) =>
    new Promise<{ ok: boolean; value?: unknown; error?: unknown }>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, resolve as (envelope: unknown) => void);
      ws.send(JSON.stringify({ type: 'invoke', id, channel, args }));
      ws.once('close', () => reject(new Error('the bridge closed')));
    });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => ws.send(JSON.stringify({ type: 'hello', token: new URLSearchParams(appUrl.hash.slice(1)).get('token') })));
    ws.on('message', function welcome(data) {
      if ((JSON.parse(data.toString()) as { type: string }).type !== 'welcome') return;
      ws.off('message', welcome);
      resolve();
    });
    ws.once('error', reject);
  });
  const added = await invoke('webhooks.add', [
    {
      id: stack.info.webhook.id,
      secret: stack.info.webhook.secret,
      tapCredential: stack.info.webhook.tap_credential,
      routing: { kind: 'keys', values: ['flood-1'] },
    },
  ]);
  console.log('webhooks.add', added.ok);
  await new Promise((resolve) => setTimeout(resolve, 1000)); // let both sockets connect (a script, not a test)

  const started = Date.now();
  let peak = 0;
  const sample = () => (peak = Math.max(peak, rssOf(pid) ?? 0));
  const statuses = new Map<number, number>();
  let sent = 0;
  const worker = async () => {
    while (sent < COUNT) {
      const n = sent++;
      try {
        const response = await fetch(`${stack.info.webhook_url}/webhook/${stack.info.webhook.id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: floodBody(n),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        await response.arrayBuffer();
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      if (n % 100 === 0) {
        sample();
        console.log(`sent ${n}: host RSS ${((rssOf(pid) ?? 0) / MiB).toFixed(0)} MiB, events ${events} (${(eventBytes / MiB).toFixed(0)} MiB)`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  console.log('POST answers', Object.fromEntries(statuses), `in ${Date.now() - started} ms`);
  sample();

  const snapshotRace = await Promise.race([
    (async () => {
      let answer = await invoke('inspector.snapshot', []);
      if (!answer.ok) answer = await invoke('inspector.snapshot', [{ limit: 200 }]);
      return `inspector.snapshot: ${answer.ok ? 'ok' : JSON.stringify(answer.error)}, ${JSON.stringify(answer).length} chars`;
    })().catch((error: unknown) => `inspector.snapshot failed: ${String(error)}`),
    exited,
    new Promise<string>((resolve) => setTimeout(() => resolve('no answer to inspector.snapshot within 120 s'), 120_000)),
  ]);
  sample();
  console.log(snapshotRace);
  const gone = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000))]);
  console.log(`host peak RSS ${(peak / MiB).toFixed(0)} MiB; host ${gone ? 'gone' : 'still running'}`);
  const stderr = host.stderr();
  const error = /RangeError[^\n]*|FATAL ERROR[^\n]*|heap out of memory[^\n]*/.exec(stderr);
  if (error) console.log('host stderr:', error[0], '\n--- stderr tail ---\n', stderr.slice(-1500));
  ws.close();
  await host.stop();
  await stack.close();
}

void main().then(() => process.exit(0));
