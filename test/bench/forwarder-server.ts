/**
 * The forwarder as the benchmarks load it: its own process, one webhook routed by key path
 * `body.device.id`. PRELOAD=N adds N registrations (`$key: "pre-<i>"`) straight into its registry:
 * more than this machine has sockets for; their messages wait in their resume buffers, as for any
 * listener that is away.
 */
import { startForwarder } from '../../services/forwarder/forwarder';
import { ListenerRegistry } from '../../services/forwarder/listener-registry';
import { createWebhookStore } from '../../services/forwarder/webhook-store';

const store = createWebhookStore();
const webhook = await store.create({ name: 'Benchmark webhook', ownerId: 'bench' });
await store.setKeyPath(webhook.id, 'body.device.id');
// Caps lifted: the preloaded registrations stand in for more listeners than any real webhook may have.
const registry = new ListenerRegistry({ bufferCapacity: 100, maxListenersPerWebhook: Infinity, maxListenersPerOwner: Infinity });
const preload = Number(process.env.PRELOAD ?? 0);
for (let i = 0; i < preload; i++) registry.register(webhook, `pre-${i}`, { hubId: undefined, data: { $key: `pre-${i}` }, keys: [`pre-${i}`] });
const forwarder = await startForwarder({ store, registry });
process.stdout.write(`${JSON.stringify({ url: forwarder.url, webhookId: webhook.id, secret: webhook.secret })}\n`);
process.once('SIGTERM', () => void forwarder.close().then(() => process.exit(0)));
