/**
 * The stack as a program (stack-cli: one JSON line on stdout, clean exit on SIGTERM) and in-process
 * (the hubs' routes: plain and secure LAN, remote through the relay; a relocated hub answers at its
 * new addresses, and the cloud's user record says so; the demo webhook routes by its key path; the
 * portal and the legacy webhooks are there).
 */
import { get } from 'node:https';
import { describe, expect, it } from 'vitest';
import { deviceUri, MANAGER_DEVICES_URI, SessionInfoSchema } from '../../../common/hub-control';
import { DeviceMapSchema, UserRecordSchema } from '../../../common/wire';
import { DEMO_USER, type StackInfo, startStack } from '../../../services/stack';
import { startServiceProgram } from '../../support/service-program';
import { TestListener } from '../../support/webhook-listener';
import { parseTapCredential } from '../../../common/webhook-protocol';
import { RealtimeTestClient } from './hub-fixture';
import { delegationToken, signIn } from './oauth-helpers';

const ping = async (url: string, id: string) => (await fetch(`${url}/api/manager/system/ping?id=${id}`)).json();

/** GET over HTTPS trusting only `ca` (fetch cannot be given a CA): status and body. */
function getTrusting(url: string, ca: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { ca, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('stack-cli', () => {
  it('prints one line of StackInfo JSON once the services answer, and exits 0 on SIGTERM', async () => {
    // One process (`node --import tsx`, as test/e2e/support/processes.ts explains), so SIGTERM reaches the program itself;
    // stopped when the test ends, so a failed expectation does not leave "Home" announced to the other tests.
    const stack = startServiceProgram('stack', []);
    const firstLine = await stack.firstLine;
    const info = JSON.parse(firstLine) as StackInfo;
    expect(info.client).toEqual({
      id: 'hubdesk-desktop',
      secret: 'hubdesk-desktop-demo-secret',
      redirect_uri: 'io.hubdesk.app:/oauth/callback',
      loopback_redirect_uri: 'http://127.0.0.1/oauth/callback',
    });
    expect(info.readonly_client).toEqual({ id: 'hubdesk-desktop-readonly', secret: 'hubdesk-desktop-readonly-demo-secret' });
    expect(info.official_client).toEqual({ id: 'homey-api-demo', secret: 'homey-api-demo-secret', redirect_uri: 'http://127.0.0.1/homey-api/callback' });
    expect(info.user).toEqual({ email: 'demo@hubdesk.test', password: 'hubdesk-demo' });
    expect(info.hubs.map((hub) => hub.name)).toEqual(['Home', 'Holiday cabin']);
    const [home, cabin] = info.hubs;
    expect(home).toMatchObject({
      localUrl: expect.stringMatching(/^http:/),
      localUrlSecure: expect.stringMatching(/^https:/),
      remoteUrl: expect.stringMatching(/^http:/),
    });
    expect(cabin).toMatchObject({ localUrl: null, localUrlSecure: null, remoteUrl: expect.stringMatching(/^http:/) });
    expect(info.ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(await ping(home!.localUrl!, home!.id)).toBe(home!.id);
    expect(await ping(home!.remoteUrl!, home!.id)).toBe(home!.id);
    expect(JSON.parse((await getTrusting(`${home!.localUrlSecure!}/api/manager/system/ping?id=${home!.id}`, info.ca)).body)).toBe(home!.id);
    expect(await ping(cabin!.remoteUrl!, cabin!.id)).toBe(cabin!.id);
    expect(info.webhook).toEqual({
      id: expect.stringMatching(/^wh_/),
      name: 'Demo webhook',
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      tap_credential: expect.stringMatching(/^tc_[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}$/),
    });
    expect((await fetch(`${info.tools_url}/webhooks`)).status).toBe(200);
    const intake = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(intake.status).toBe(202);

    stack.child.kill('SIGTERM');
    expect(await stack.exited).toBe(0);
    expect(stack.output().stdout).toBe(`${firstLine}\n`); // exactly one line; logs went to stderr
    expect(stack.output().stderr).toContain('stopping');
    await expect(fetch(`${info.auth_url}/.well-known/jwks.json`)).rejects.toThrow();
    await expect(fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, { method: 'POST' })).rejects.toThrow();
    await expect(fetch(`${info.tools_url}/webhooks`)).rejects.toThrow();
  });
});

describe('webhooks in the stack', () => {
  it('routes the demo webhook by body.device.id, seeds the legacy fixtures, and closes the forwarder', async () => {
    const stack = await startStack({ remoteLatencyMs: 0 });
    const { info } = stack;
    try {
      const listener = await TestListener.connect({
        forwarderUrl: info.webhook_url,
        webhookId: info.webhook.id,
        secret: info.webhook.secret,
        listenerId: 'stack-test',
        data: { $key: 'dev-1' },
      });
      const tapCredential = parseTapCredential(info.webhook.tap_credential)!;
      const tap = await TestListener.connect({
        forwarderUrl: info.webhook_url,
        webhookId: info.webhook.id,
        role: 'tap',
        credentialId: tapCredential.id,
        secret: tapCredential.secret,
        listenerId: 'stack-tap',
      });
      const response = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device: { id: 'dev-1' } }),
      });
      const { id } = (await response.json()) as { id: string };
      const message = await listener.nextMessage();
      expect(message.id).toBe(id);
      expect(message.body).toEqual({ device: { id: 'dev-1' } });
      expect((await tap.nextTap()).routing).toMatchObject({ option: 'key-path', value: 'dev-1', matched: [{ listenerId: 'stack-test' }] });
      await listener.close();
      await tap.close();

      expect(stack.webhooks.get(info.webhook.id)).toMatchObject({ name: 'Demo webhook', keyPath: 'body.device.id', ownerId: DEMO_USER._id });
      const legacy = stack.webhooks.list(DEMO_USER._id).filter((record) => record.legacyFunction !== null);
      expect(legacy.map((record) => record.name).sort()).toEqual(['Legacy: match-by-room', 'Legacy: match-device-list', 'Legacy: match-owner-header']);
      expect(legacy.find((record) => record.name === 'Legacy: match-by-room')?.legacyFunction).toContain('function (hubData, webhookData)');
      // Random like any webhook's: a guessable id would let anyone flood the legacy sandbox.
      for (const record of legacy) expect(record.id).toMatch(/^wh_[A-Za-z0-9_-]{16}$/);
    } finally {
      await stack.close();
    }
    await expect(fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, { method: 'POST' })).rejects.toThrow();
  });
});

describe("the hubs' routes", () => {
  const LATENCY_MS = 40;

  it('serves one hub on its plain, secure and remote routes: the same sessions on each, TLS trusted only with the stack CA, the remote route slower', async () => {
    const stack = await startStack({ remoteLatencyMs: LATENCY_MS });
    try {
      const { info } = stack;
      const home = info.hubs.find((hub) => hub.name === 'Home')!;
      const secure = home.localUrlSecure!;
      expect(new URL(secure).hostname).toBe('127.0.0.1');
      // Without the CA the certificate is refused; with it, the name (127.0.0.1 and localhost) matches.
      await expect(fetch(`${secure}/api/manager/system/ping?id=${home.id}`)).rejects.toThrow();
      const viaLocalhost = secure.replace('127.0.0.1', 'localhost');
      expect(JSON.parse((await getTrusting(`${viaLocalhost}/api/manager/system/ping?id=${home.id}`, info.ca)).body)).toBe(home.id);

      // A session opened on the plain route is valid on the secure one: one hub behind both.
      const client = { id: info.client.id, secret: info.client.secret, redirectUri: info.client.redirect_uri };
      const { access_token } = await signIn(info.auth_url, client, info.user);
      const token = await delegationToken(info.auth_url, access_token, home.id);
      const session = (await (
        await fetch(`${home.localUrl!}/api/manager/users/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token }),
        })
      ).json()) as string;
      const devices = await getTrusting(`${secure}/api/manager/devices/device`, info.ca, { authorization: `Bearer ${session}` });
      expect(devices.status).toBe(200);
      expect(Object.keys(JSON.parse(devices.body) as object).length).toBeGreaterThanOrEqual(20);

      // The relay holds each direction for the latency: a ping costs at least a round trip more.
      const started = performance.now();
      expect(await ping(home.remoteUrl!, home.id)).toBe(home.id);
      expect(performance.now() - started).toBeGreaterThanOrEqual(2 * LATENCY_MS - 2);
    } finally {
      await stack.close();
    }
  });
});

describe('relocateHub', () => {
  it('moves a hub to new ports on all its routes, and /user/me shows the new addresses', async () => {
    const stack = await startStack({ remoteLatencyMs: 0 });
    try {
      const { info } = stack;
      const client = { id: info.client.id, secret: info.client.secret, redirectUri: info.client.redirect_uri };
      const { access_token } = await signIn(info.auth_url, client, info.user);
      const me = async () =>
        UserRecordSchema.parse(await (await fetch(`${info.auth_url}/user/me`, { headers: { authorization: `Bearer ${access_token}` } })).json());

      const home = info.hubs.find((hub) => hub.name === 'Home')!;
      const { id: _id, name: _name, ...before } = { ...home };
      expect((await me()).hubs.find((hub) => hub._id === home.id)).toMatchObject(before);

      await stack.relocateHub(home.id);
      const { id: _newId, name: _newName, ...after } = info.hubs[0]!;
      expect(after.localUrl).toBe(stack.hubs[0]!.url);
      expect(after.localUrlSecure).toBe(stack.hubs[0]!.secureUrl);
      for (const route of ['localUrl', 'localUrlSecure', 'remoteUrl'] as const) {
        expect(after[route]).not.toBe(before[route]);
        await expect(fetch(`${before[route]!}/api/manager/system/ping?id=${home.id}`)).rejects.toThrow();
      }
      expect(await ping(after.localUrl!, home.id)).toBe(home.id);
      expect(await ping(after.remoteUrl!, home.id)).toBe(home.id); // the new relay leads to the new hub
      expect(JSON.parse((await getTrusting(`${after.localUrlSecure!}/api/manager/system/ping?id=${home.id}`, info.ca)).body)).toBe(home.id);
      expect((await me()).hubs.find((hub) => hub._id === home.id)).toMatchObject(after);
    } finally {
      await stack.close();
    }
  });

  it('a delegation token used before the move cannot be replayed after it', async () => {
    const stack = await startStack({ remoteLatencyMs: 0 });
    try {
      const { info } = stack;
      const client = { id: info.client.id, secret: info.client.secret, redirectUri: info.client.redirect_uri };
      const { access_token } = await signIn(info.auth_url, client, info.user);
      const home = info.hubs.find((hub) => hub.name === 'Home')!;
      const token = await delegationToken(info.auth_url, access_token, home.id);
      const login = (baseUrl: string) =>
        fetch(`${baseUrl}/api/manager/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
      expect((await login(home.localUrl!)).status).toBe(200);
      await stack.relocateHub(home.id);
      expect((await login(info.hubs[0]!.localUrl!)).status).toBe(401);
    } finally {
      await stack.close();
    }
  });
});

describe('control and realtime in the stack', () => {
  /** A session on "Home" for the stack's demo client, or its read-only twin. */
  async function homeSession(info: StackInfo, client: { id: string; secret: string }): Promise<{ home: StackInfo['hubs'][number]; session: string }> {
    const home = info.hubs.find((hub) => hub.name === 'Home')!;
    const { access_token } = await signIn(info.auth_url, { ...client, redirectUri: info.client.redirect_uri }, info.user);
    const token = await delegationToken(info.auth_url, access_token, home.id);
    const response = await fetch(`${home.localUrl!}/api/manager/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    return { home, session: (await response.json()) as string };
  }

  it('registers a read-only client: its sessions may list devices but not change them', async () => {
    const stack = await startStack({ remoteLatencyMs: 0 });
    try {
      const { home, session } = await homeSession(stack.info, stack.info.readonly_client);
      const auth = { authorization: `Bearer ${session}` };
      const me = SessionInfoSchema.parse(await (await fetch(`${home.localUrl!}/api/manager/sessions/session/me`, { headers: auth })).json());
      expect(me.scopes).toEqual(['devices.readonly']);
      const devices = DeviceMapSchema.parse(await (await fetch(`${home.localUrl!}/api/manager/devices/device`, { headers: auth })).json());
      const [id] = Object.keys(devices);
      const refused = await fetch(`${home.localUrl!}/api/manager/devices/device/${id}/capability/onoff`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"value":true}',
      });
      expect(refused.status).toBe(403);
    } finally {
      await stack.close();
    }
  });

  it('with largeHome and eventsPerSecond, "Home" has that many devices and streams their changes over the remote route', async () => {
    const stack = await startStack({ remoteLatencyMs: 0, largeHome: { devices: 300 }, eventsPerSecond: 100 });
    try {
      const { home, session } = await homeSession(stack.info, stack.info.client);
      const devices = DeviceMapSchema.parse(
        await (await fetch(`${home.remoteUrl!}/api/manager/devices/device`, { headers: { authorization: `Bearer ${session}` } })).json(),
      );
      expect(Object.keys(devices)).toHaveLength(300);
      const client = await RealtimeTestClient.subscribed(home.remoteUrl!, session, [MANAGER_DEVICES_URI, ...Object.keys(devices).map(deviceUri)]);
      const seen = new Set<string>();
      while (seen.size < 10) {
        const message = await client.next();
        if (message.type === 'event' && message.event === 'capability') seen.add(message.uri);
      }
      await client.close();
    } finally {
      await stack.close();
    }
  });
});
