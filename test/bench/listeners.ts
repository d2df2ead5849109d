/**
 * Registers COUNT real listeners on the forwarder's channel (each `$key: "dev-<i>"`) from its own process,
 * acknowledges what they receive, and prints `ready` once all are registered.
 */
import { TestListener } from '../support/webhook-listener';

const [forwarderUrl, webhookId, secret, count] = [process.env.FORWARDER_URL!, process.env.WEBHOOK_ID!, process.env.WEBHOOK_SECRET!, Number(process.env.COUNT)];
const BATCH = 250;
const listeners: TestListener[] = [];
for (let start = 0; start < count; start += BATCH) {
  const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, offset) =>
    TestListener.connect({ forwarderUrl, webhookId, secret, listenerId: `bench-${start + offset}`, data: { $key: `dev-${start + offset}` } }),
  );
  listeners.push(...(await Promise.all(batch)));
}
// Received messages are kept by TestListener; drop them so a long run does not grow memory.
setInterval(() => {
  for (const listener of listeners) listener.messages.all.length = 0;
}, 1000).unref();
process.stdout.write('ready\n');
process.once('SIGTERM', () => process.exit(0));
