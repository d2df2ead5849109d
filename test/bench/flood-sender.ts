/**
 * The two sides of test/bench/forwarder-floods.ts's `legacy` flood, each in a process of its own, so the
 * bench's process holds only the other tenant's request and listener and what it measures is the
 * forwarder's, not the event loop of a load generator writing 300 MB; nor does the flood's listener share
 * that loop (a real one runs on a hub, not on the sender's machine). Configured by FLOOD_SENDER (JSON: the
 * intake URLs, webhook, count, body bytes, source addresses, the listener's forwarder URL and secret).
 *
 *   flood-sender.ts listener   registers the flood's listener, prints `{"connected":true}`, then
 *                              `{"delivered":n}` as messages arrive (at most every 100 ms) until killed
 *   flood-sender.ts flood      prints `{"sending":true}` and sends the flood; prints `{"answered":n}` at
 *                              the first answer and every 25th, and `{"done":{"statuses":…}}` at the end
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
  /** Source addresses, used in turn (one sender each); none: the machine's default. */
  from?: string[];
}

const plan = JSON.parse(process.env.FLOOD_SENDER ?? '{}') as FloodPlan;
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

if (process.argv[2] === 'listener') {
  const listener = await TestListener.connect({
    forwarderUrl: plan.listenerUrl,
    webhookId: plan.webhookId,
    secret: plan.secret,
    listenerId: 'flood',
    data: { room: 'a' },
  });
  say({ connected: true });
  let told = 0;
  setInterval(() => {
    const delivered = listener.messages.all.length;
    if (delivered !== told) say({ delivered: (told = delivered) });
  }, 100);
} else {
  const body = paddedBody('a', plan.bodyBytes);
  const statuses = new Map<number, number>();
  let answered = 0;
  say({ sending: true });
  await Promise.all(
    Array.from({ length: plan.count }, (_, index) =>
      postRaw(`${plan.urls[index % plan.urls.length]}/webhook/${plan.webhookId}`, body, plan.from?.[index % plan.from.length])
        .catch(() => ({ status: 0 }))
        .then(({ status }) => {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (++answered === 1 || answered % 25 === 0) say({ answered });
        }),
    ),
  );
  say({ done: { statuses: Object.fromEntries(statuses) } });
  process.exit(0);
}
