/** The forwarder as the benchmarks load it: its own process, one webhook routed by key path `body.device.id`. */
import { startForwarder } from '../../services/forwarder/forwarder';
import { createWebhookStore } from '../../services/forwarder/webhook-store';

const store = createWebhookStore();
const webhook = store.create({ name: 'Benchmark webhook', ownerId: 'bench' });
store.setKeyPath(webhook.id, 'body.device.id');
const forwarder = await startForwarder({ store, resumeBufferSize: 100 });
process.stdout.write(`${JSON.stringify({ url: forwarder.url, webhookId: webhook.id, secret: webhook.secret })}\n`);
process.once('SIGTERM', () => void forwarder.close().then(() => process.exit(0)));
