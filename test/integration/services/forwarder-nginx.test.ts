/**
 * The forwarder as deployed behind a real load balancer (docs/services.md, "Behind a load balancer"):
 * nginx running the committed deploy/nginx/forwarder.conf.template in front of three instances built to
 * plain JavaScript (`node out/services/forwarder-cli.js`) on one real redis-server. Posts and listeners
 * go through nginx only; each instance's admin listener is used only to ask it what it holds (/metrics).
 * - Only the intake and the listener channel are public: /metrics, /readyz and /healthz are 404 there,
 *   and a body over the forwarder's limit is refused by nginx with the forwarder's error shape.
 * - kill -9 of the instance a listener is on while requests stream in through nginx: every message that
 *   got a 202 reaches the listener, which is the app's own channel (main/core/webhooks/webhook-channel.ts) and
 *   comes back through nginx by itself.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { WebhookConnection } from '../../../common/ipc-contract';
import { openWebhookChannel } from '../../../main/core/webhooks/webhook-channel';
import { silentLogger } from '../../../services/shared/logger';
import { type ForwarderInfo, runForwarderCli } from '../../support/forwarder-cli';
import { startTestNginx } from '../../support/nginx';
import { startTestRedis, type TestRedis } from '../../support/redis-server';
import { TestListener } from '../../support/webhook-listener';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(() => redis.stop());

/** Three built instances (started one after the other: the first makes the demo webhook) and nginx in front. */
async function cluster() {
  const clis: Array<ReturnType<typeof runForwarderCli>> = [];
  const infos: ForwarderInfo[] = [];
  for (let i = 0; i < 3; i++) {
    // As deployed (compose.yaml): nginx is the instances' only client and limits each address itself.
    const cli = runForwarderCli(['--redis', redis.url, '--trusted-proxy', '127.0.0.1'], 'built');
    clis.push(cli);
    infos.push(await cli.info);
  }
  const nginx = await startTestNginx(infos.map((info) => new URL(info.webhook_url).host) as [string, string, string]);
  onTestFinished(() => nginx.stop());
  return { clis, infos, nginx, webhook: infos[0]!.webhook };
}

const post = (url: string, webhookId: string, body: string) =>
  fetch(`${url}/webhook/${webhookId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

/** How many listeners are connected to one instance, asked on its admin listener. */
async function listenersOn(info: ForwarderInfo): Promise<number> {
  const text = await (await fetch(info.health.metrics)).text();
  return Number(/^forwarder_listeners_connected (\S+)$/m.exec(text)?.[1]);
}

describe('behind nginx', () => {
  it('passes the intake and the listener channel; /metrics, /readyz and /healthz are not public; an oversized body is refused', async () => {
    const { infos, nginx, webhook } = await cluster();
    for (const path of ['/metrics', '/readyz', '/healthz', '/']) {
      const response = await fetch(`${nginx.url}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(await response.json()).toMatchObject({ error: 'not_found' });
    }
    // Each instance answers them on its admin listener, for the monitoring inside.
    for (const info of infos) expect((await fetch(info.health.ready)).status).toBe(200);

    const listener = await TestListener.connect({
      forwarderUrl: nginx.url,
      webhookId: webhook.id,
      secret: webhook.secret,
      listenerId: 'through-nginx',
      data: { $key: 'lamp-1' },
    });
    const accepted = await post(nginx.url, webhook.id, '{"device":{"id":"lamp-1"}}');
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };
    const message = await listener.nextMessage();
    expect(message.id).toBe(id);
    // nginx adds no header of its own to what the listener gets.
    expect(Object.keys(message.headers).filter((name) => name.startsWith('x-forwarded') || name === 'x-real-ip')).toEqual([]);
    expect((await post(nginx.url, 'wh_nonexistent00000', '{}')).status).toBe(404); // the forwarder's answer, passed on

    const tooLarge = await post(nginx.url, webhook.id, JSON.stringify({ pad: 'x'.repeat(256 * 1024) }));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: 'payload_too_large' });
    await listener.close();
  });

  it('kill -9 of the instance a listener is on while requests stream in: every message that got a 202 arrives, and the listener is back through nginx by itself', async () => {
    const { clis, infos, nginx, webhook } = await cluster();
    const received = new Set<string>();
    const states: WebhookConnection['state'][] = [];
    let acknowledged: string | undefined;
    const channel = openWebhookChannel({
      webhookUrl: nginx.url,
      webhookId: webhook.id,
      secret: webhook.secret,
      role: 'listener',
      listenerId: 'kill-9-behind-nginx',
      data: { $key: 'lamp-1' },
      resumeAfter: () => acknowledged,
      onMessage: (message) => void received.add(message.id),
      onAcknowledged: (id) => (acknowledged = id),
      onConnection: (connection) => void states.push(connection.state),
      logger: silentLogger,
      clock: { now: Date.now },
    });
    onTestFinished(() => channel.stop());
    await vi.waitFor(() => expect(states.at(-1)).toBe('connected'), { timeout: 15_000, interval: 20 });
    // Which instance nginx put it on, asked of each instance directly.
    const victim = await vi.waitFor(
      async () => {
        const counts = await Promise.all(infos.map(listenersOn));
        expect(counts.filter((count) => count === 1)).toHaveLength(1);
        return counts.indexOf(1);
      },
      { timeout: 15_000, interval: 50 },
    );

    // A steady stream through nginx; what is not answered 202 (an instance dying under it) does not count.
    const accepted: string[] = [];
    let sending = true;
    const stream = (async () => {
      for (let n = 0; sending; n++) {
        const response = await post(nginx.url, webhook.id, JSON.stringify({ device: { id: 'lamp-1' }, n })).catch(() => undefined);
        if (response?.status === 202) accepted.push(((await response.json()) as { id: string }).id);
        else await response?.body?.cancel();
      }
    })();
    await vi.waitFor(() => expect(received.size).toBeGreaterThanOrEqual(100), { timeout: 20_000, interval: 10 });

    const statesAtKill = states.length;
    clis[victim]!.child.kill('SIGKILL');
    expect(await clis[victim]!.exited).toBe(null); // killed, not exited
    const acceptedAtKill = accepted.length;
    // Back by itself: the channel noticed, reconnected through nginx, and another instance has it.
    await vi.waitFor(() => expect(states.slice(statesAtKill)).toEqual(expect.arrayContaining(['reconnecting', 'connected'])), {
      timeout: 20_000,
      interval: 20,
    });
    expect(states.slice(statesAtKill).at(-1)).toBe('connected');
    const survivors = infos.filter((_, i) => i !== victim);
    await vi.waitFor(async () => expect((await Promise.all(survivors.map(listenersOn))).reduce((sum, count) => sum + count, 0)).toBe(1), {
      timeout: 15_000,
      interval: 50,
    });
    await vi.waitFor(() => expect(accepted.length).toBeGreaterThanOrEqual(acceptedAtKill + 100), { timeout: 20_000, interval: 10 });
    sending = false;
    await stream;

    await vi.waitFor(() => expect(accepted.filter((id) => !received.has(id))).toEqual([]), { timeout: 20_000, interval: 20 });
    expect(accepted.length).toBeGreaterThanOrEqual(200);
  });
});
