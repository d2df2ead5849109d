/**
 * Bytes per webhook intake on the way to the inspector. The real forwarder (in this
 * process) and the app's real webhook listener (listener and tap sockets, with the owner's tap
 * credential), one webhook with key path `body.device.id`. For a JSON body of 1 KiB and of 64 KiB:
 *  - forwarder → app: the payload bytes of the text frames received on the app's two sockets (the
 *    listener's delivery and the tap's event; WebSocket framing not counted), counted by a wrapper of
 *    the host's WebSocket opener;
 *  - app core → renderer: the serialised JSON of every inspector event the core emits for the intake
 *    (`webhooks.entry`, and `webhooks.entryPatch` where it exists).
 * Two cases: an intake routed to this app (delivered; both sockets carry it) and another hub's intake
 * (the tap only). The baseline is the body itself: the ratio is bytes sent per byte of body.
 * Each figure is the mean of INTAKES intakes. `BENCH_ONLY=inspector npm run bench`, or on its own:
 * `npx tsx test/bench/inspector-bytes.ts`.
 */
import { WebSocket } from 'ws';
import { EVENT_NAMES } from '../../common/ipc-contract';
import { formatTapCredential } from '../../common/webhook-protocol';
import type { OpenWebSocket } from '../../main/core/shared/live-socket';
import { createSecretStore } from '../../main/core/shared/secret-store';
import { createWebhookInspector } from '../../main/core/webhooks/webhook-inspector';
import { createWebhookListener } from '../../main/core/webhooks/webhook-listener';
import { createWebhookRegistrations } from '../../main/core/webhooks/webhook-registrations';
import { startForwarder } from '../../services/forwarder/forwarder';
import { createWebhookStore } from '../../services/forwarder/webhook-store';
import { fakeCipher, memoryStore, recordingLogger } from '../support/core-fakes';
import type { BenchRow } from './route-opening';
import { sized } from './bench-mode';

const INTAKES = sized(20, 3);
const SIZES = [1024, 64 * 1024];
const MINE = 'lamp-1';

/** A JSON body of exactly `bytes` bytes: a device, an event and readings, padded with a note. */
export function jsonBody(bytes: number, deviceId: string, n: number): string {
  const readings = Array.from({ length: Math.max(1, Math.floor(bytes / 80)) }, (_, i) => ({
    t: 1_760_000_000 + i * 60,
    value: 21.5 + (i % 10) / 10,
    unit: 'C',
  }));
  let body: { device: { id: string }; event: string; n: number; readings: typeof readings; note: string } = {
    device: { id: deviceId },
    event: 'report',
    n,
    readings,
    note: '',
  };
  while (JSON.stringify(body).length > bytes) body = { ...body, readings: body.readings.slice(0, -1) };
  const text = JSON.stringify(body);
  return text.replace('"note":""', `"note":"${'x'.repeat(bytes - text.length)}"`);
}

interface Counter {
  frames: number;
  bytes: number;
}

export async function inspectorBytes(): Promise<BenchRow[]> {
  const store = createWebhookStore();
  const webhook = await store.create({ name: 'inspector bytes', ownerId: 'bench' });
  await store.setKeyPath(webhook.id, 'body.device.id');
  const tapCredential = formatTapCredential(await store.createTapCredential(webhook.id));
  const forwarder = await startForwarder({ store });

  // The app's sockets, counted as they receive: listener and tap are told apart by the first register frame they send.
  const sockets = { listener: { frames: 0, bytes: 0 }, tap: { frames: 0, bytes: 0 } };
  const counting: OpenWebSocket = (url, options) => {
    const ws = new WebSocket(url, options);
    let role: 'listener' | 'tap' | undefined;
    const send = ws.send.bind(ws);
    ws.send = ((data: string, ...rest: never[]) => {
      if (role === undefined && typeof data === 'string' && data.includes('"type":"register"')) role = (JSON.parse(data) as { role: 'listener' | 'tap' }).role;
      return (send as (...args: unknown[]) => void)(data, ...rest);
    }) as typeof ws.send;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (role === undefined || isBinary) return;
      const counter = sockets[role];
      counter.frames++;
      counter.bytes += data.length;
    });
    return ws;
  };

  const logger = recordingLogger();
  const settings = memoryStore();
  const listener = createWebhookListener({
    webhookUrl: forwarder.url,
    registrations: createWebhookRegistrations({ secrets: createSecretStore({ cipher: fakeCipher(), store: settings, logger }), store: settings, logger }),
    inspector: createWebhookInspector(),
    logger,
    clock: { now: Date.now },
    openWebSocket: counting,
  });
  const toRenderer = { frames: 0, bytes: 0 };
  /** By event name: how many and their bytes. */
  const byEvent = new Map<string, Counter>();
  const on = listener.on as (event: string, handler: (payload: unknown) => void) => () => void;
  for (const name of EVENT_NAMES.filter((event) => event.startsWith('webhooks.') && event !== 'webhooks.status')) {
    byEvent.set(name, { frames: 0, bytes: 0 });
    on(name, (payload) => {
      const bytes = Buffer.byteLength(JSON.stringify(payload));
      toRenderer.frames++;
      toRenderer.bytes += bytes;
      byEvent.get(name)!.frames++;
      byEvent.get(name)!.bytes += bytes;
    });
  }
  let connected = false;
  listener.on('webhooks.status', (status) => (connected = status.connection.state === 'connected'));
  await listener.add({ id: webhook.id, secret: webhook.secret, tapCredential, routing: { kind: 'keys', values: [MINE] } });
  await until(() => connected);

  const rows: BenchRow[] = [];
  try {
    for (const size of SIZES) {
      for (const delivered of [true, false]) {
        const before = {
          listener: { ...sockets.listener },
          tap: { ...sockets.tap },
          toRenderer: { ...toRenderer },
          byEvent: new Map([...byEvent].map(([name, counter]) => [name, { ...counter }])),
        };
        for (let n = 0; n < INTAKES; n++) {
          const frames = { listener: sockets.listener.frames, tap: sockets.tap.frames };
          const response = await fetch(`${forwarder.url}/webhook/${webhook.id}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': 'inspector-bytes-bench/1.0', 'x-signature': 'sha256=' + 'ab'.repeat(32) },
            body: jsonBody(size, delivered ? MINE : 'kettle-9', n),
          });
          if (response.status !== 202) throw new Error(`intake answered ${response.status}`);
          await response.arrayBuffer();
          await until(() => sockets.tap.frames > frames.tap && (!delivered || sockets.listener.frames > frames.listener));
          await new Promise((resolve) => setImmediate(resolve)); // the channel handles the frame after our counter
        }
        const perIntake = (now: Counter, then: Counter) => (now.bytes - then.bytes) / INTAKES;
        const wire = perIntake(sockets.listener, before.listener) + perIntake(sockets.tap, before.tap);
        const renderer = perIntake(toRenderer, before.toRenderer);
        // Per event name: "1 webhooks.entry 1,790 B + 1 webhooks.entryPatch 187 B" (per intake, means).
        const split = [...byEvent]
          .map(([name, counter]) => ({
            name,
            frames: (counter.frames - before.byEvent.get(name)!.frames) / INTAKES,
            bytes: perIntake(counter, before.byEvent.get(name)!),
          }))
          .filter((event) => event.frames > 0)
          .map((event) => `${event.frames.toFixed(1)} × ${event.name} ${(event.bytes / event.frames).toFixed(0)} B`)
          .join(' + ');
        const label = `${size / 1024} KiB JSON, ${delivered ? 'routed to this app' : "another hub's (tap only)"}`;
        rows.push(
          row(
            `forwarder → app sockets, ${label} (bytes/intake: listener ${perIntake(sockets.listener, before.listener).toFixed(0)} + tap ${perIntake(sockets.tap, before.tap).toFixed(0)})`,
            wire,
            size,
          ),
        );
        rows.push(row(`core → renderer events, ${label} (bytes/intake: ${split})`, renderer, size));
      }
    }
  } finally {
    listener.dispose();
    await forwarder.close();
  }
  return rows;
}

function row(figure: string, bytes: number, body: number): BenchRow {
  return { figure, value: bytes.toFixed(0), baseline: `${body} (body bytes)`, ratio: (bytes / body).toFixed(2), target: '', met: true };
}

async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('inspector-bytes: timed out waiting for the app');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await inspectorBytes();
  console.table(rows.map(({ figure, value, baseline, ratio }) => ({ figure, value, baseline, ratio })));
}
