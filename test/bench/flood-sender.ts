/**
 * The flood of test/bench/forwarder-floods.ts (`legacy`) from a process of its own, with the flood's
 * listener: the bench's process then holds only the other tenant's request and listener, so what it
 * measures is the forwarder's, not the load generator's own event loop writing 300 MB. Configured by
 * FLOOD_SENDER (JSON: the intake URLs, webhook, count, body bytes, source address, the listener's
 * forwarder URL and secret). Prints JSON lines: `{"connected":…}` once its listener is registered, then
 * `{"answered":n}` at the first answer and every 25th, and `{"done":…}` with the statuses at the end.
 */
import { paddedBody, postRaw } from '../support/flood';
import { TestListener } from '../support/webhook-listener';

interface FloodPlan {
  urls: string[];
  webhookId: string;
  secret: string;
  listenerUrl: string;
  count: number;
  bodyBytes: number;
  from?: string;
}

const plan = JSON.parse(process.env.FLOOD_SENDER ?? '{}') as FloodPlan;
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const listener = await TestListener.connect({ forwarderUrl: plan.listenerUrl, webhookId: plan.webhookId, secret: plan.secret, listenerId: 'flood', data: { room: 'a' } });
say({ connected: true });
const body = paddedBody('a', plan.bodyBytes);
const statuses = new Map<number, number>();
let answered = 0;
await Promise.all(
  Array.from({ length: plan.count }, (_, index) =>
    postRaw(`${plan.urls[index % plan.urls.length]}/webhook/${plan.webhookId}`, body, plan.from)
      .catch(() => ({ status: 0 }))
      .then(({ status }) => {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (++answered === 1 || answered % 25 === 0) say({ answered });
      }),
  ),
);
say({ done: { statuses: Object.fromEntries(statuses), delivered: listener.messages.all.length } });
await listener.close().catch(() => undefined);
process.exit(0);
