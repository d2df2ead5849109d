/**
 * The forwarder as the benchmarks load it: its own process, one webhook routed by key path
 * `body.device.id`. PRELOAD=N adds N registrations (`$key: "pre-<i>"`) straight into its registry:
 * more than this machine has sockets for; their messages wait in their resume buffers, as for any
 * listener that is away. REDIS_URL=redis://… keeps the state in that Redis instead (PRELOAD does not
 * apply); WEBHOOK_ID names a webhook an earlier instance on the same Redis made, to share it.
 */
import { startForwarder } from '../../services/forwarder/forwarder';
import { ListenerRegistry } from '../../services/forwarder/listener-registry';
import { connectRedis } from '../../services/forwarder/redis/redis-state';
import { silentLogger } from '../../services/shared/logger';
import { createWebhookStore } from '../../services/forwarder/webhook-store';
import { ONE_ADDRESS_FLOOD_LIMITS } from '../support/flood';

const { REDIS_URL, WEBHOOK_ID } = process.env;
const redis = REDIS_URL ? await connectRedis(REDIS_URL, { logger: silentLogger }) : undefined;
const store = redis?.store ?? createWebhookStore();
const webhook =
  (WEBHOOK_ID && store.get(WEBHOOK_ID)) || (await store.setKeyPath((await store.create({ name: 'Benchmark webhook', ownerId: 'bench' })).id, 'body.device.id'));
// Caps lifted: the preloaded registrations stand in for more listeners than any real webhook may have.
const registry = new ListenerRegistry({ bufferCapacity: 100, maxListenersPerWebhook: Infinity, maxListenersPerOwner: Infinity });
const preload = Number(process.env.PRELOAD ?? 0);
for (let i = 0; i < preload; i++) registry.register(webhook, `pre-${i}`, { hubId: undefined, data: { $key: `pre-${i}` }, keys: [`pre-${i}`] });
// The load generator is one address standing for many senders: its per-address limits are out of the way.
const forwarder = await startForwarder({ ...(redis ? { redis } : { store, registry }), addressLimits: ONE_ADDRESS_FLOOD_LIMITS });
process.stdout.write(`${JSON.stringify({ url: forwarder.url, webhookId: webhook.id, secret: webhook.secret })}\n`);
process.once(
  'SIGTERM',
  () =>
    void forwarder
      .close()
      .then(() => redis?.close())
      .then(() => process.exit(0)),
);
