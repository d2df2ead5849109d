/**
 * A hub app's listener as the benchmarks run it: its own process, one `$key` registration, registered
 * `rawBodyOnly` as the app does, acknowledging every message as it arrives. It prints `{"ready":true}`
 * once registered, and on SIGTERM `{"received": N}` (messages, duplicates counted once).
 * Environment: FORWARDER_URL, WEBHOOK_ID, SECRET, KEY.
 */
import { WebSocket } from 'ws';
import { proofFor } from '../../common/webhook-proof';
import { LISTEN_PATH } from '../../common/webhook-protocol';

const { FORWARDER_URL = '', WEBHOOK_ID = '', SECRET = '', KEY = 'live' } = process.env;
const socket = new WebSocket(FORWARDER_URL.replace(/^http/, 'ws') + LISTEN_PATH);
const seen = new Set<string>();
socket.on('message', (data: Buffer) => {
  const frame = JSON.parse(data.toString('utf8')) as { type: string; nonce?: string; message?: { id: string } };
  if (frame.type === 'challenge') {
    socket.send(
      JSON.stringify({
        type: 'register',
        webhookId: WEBHOOK_ID,
        proof: proofFor(SECRET, frame.nonce!),
        role: 'listener',
        listenerId: 'bench-live',
        data: { $key: KEY },
        rawBodyOnly: true,
      }),
    );
  } else if (frame.type === 'registered') {
    process.stdout.write('{"ready":true}\n');
  } else if (frame.type === 'message') {
    seen.add(frame.message!.id);
    socket.send(JSON.stringify({ type: 'ack', id: frame.message!.id }));
  }
});
socket.on('close', (code) => {
  process.stderr.write(`listener closed: ${code}\n`);
  process.exit(1);
});
process.once('SIGTERM', () => {
  process.stdout.write(`${JSON.stringify({ received: seen.size })}\n`);
  process.exit(0);
});
