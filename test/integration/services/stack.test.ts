/**
 * The stack as a program (stack-cli: one JSON line on stdout, clean exit on SIGTERM) and in-process
 * (a relocated hub answers at its new address, and the cloud's user record says so; the demo webhook
 * routes by its key path; the portal and the legacy webhooks are there).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { UserRecordSchema } from '../../../common/wire';
import { DEMO_USER, type StackInfo, startStack } from '../../../services/stack';
import { TestListener } from '../../support/webhook-listener';
import { signIn } from './oauth-helpers';

const ping = async (url: string, id: string) => (await fetch(`${url}/api/manager/system/ping?id=${id}`)).json();

describe('stack-cli', () => {
  it('prints one line of StackInfo JSON once the services answer, and exits 0 on SIGTERM', async () => {
    const child = spawn('node_modules/.bin/tsx', ['services/stack-cli.ts'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const firstLine = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      });
      void exited.then((code) => reject(new Error(`stack-cli exited with ${code} before printing: ${stderr}`)));
    });
    const info = JSON.parse(firstLine) as StackInfo;
    expect(info.client).toEqual({
      id: 'hubdesk-desktop',
      secret: 'hubdesk-desktop-demo-secret',
      redirect_uri: 'io.hubdesk.app:/oauth/callback',
      loopback_redirect_uri: 'http://127.0.0.1/oauth/callback',
    });
    expect(info.user).toEqual({ email: 'demo@hubdesk.test', password: 'hubdesk-demo' });
    expect(info.hubs.map((hub) => hub.name)).toEqual(['Home', 'Holiday cabin']);
    const [home, cabin] = info.hubs;
    expect(home).toMatchObject({ localUrlSecure: null, remoteUrl: null });
    expect(cabin).toMatchObject({ localUrl: null, localUrlSecure: null });
    expect(await ping(home!.localUrl!, home!.id)).toBe(home!.id);
    expect(await ping(cabin!.remoteUrl!, cabin!.id)).toBe(cabin!.id);
    expect(info.webhook).toEqual({ id: expect.stringMatching(/^wh_/), secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect((await fetch(`${info.tools_url}/webhooks`)).status).toBe(200);
    const intake = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(intake.status).toBe(202);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toBe(`${firstLine}\n`); // exactly one line; logs went to stderr
    expect(stderr).toContain('stopping');
    await expect(fetch(`${info.auth_url}/.well-known/jwks.json`)).rejects.toThrow();
    await expect(fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, { method: 'POST' })).rejects.toThrow();
    await expect(fetch(`${info.tools_url}/webhooks`)).rejects.toThrow();
  });
});

describe('webhooks in the stack', () => {
  it('routes the demo webhook by body.device.id, seeds the legacy fixtures, and closes the forwarder', async () => {
    const stack = await startStack();
    const { info } = stack;
    try {
      const listener = await TestListener.connect({ forwarderUrl: info.webhook_url, webhookId: info.webhook.id, secret: info.webhook.secret, listenerId: 'stack-test', data: { $key: 'dev-1' } });
      const response = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ device: { id: 'dev-1' } }) });
      const { id } = (await response.json()) as { id: string };
      const message = await listener.nextMessage();
      expect(message.id).toBe(id);
      expect(message.body).toEqual({ device: { id: 'dev-1' } });
      await listener.close();

      expect(stack.webhooks.get(info.webhook.id)).toMatchObject({ name: 'Demo webhook', keyPath: 'body.device.id', ownerId: DEMO_USER._id });
      expect(stack.webhooks.get('wh_legacy_match-by-room')?.legacyFunction).toContain('function (hubData, webhookData)');
    } finally {
      await stack.close();
    }
    await expect(fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, { method: 'POST' })).rejects.toThrow();
  });
});

describe('relocateHub', () => {
  it('moves a hub to a new port, and /user/me shows the new address', async () => {
    const stack = await startStack();
    try {
      const { info } = stack;
      const client = { id: info.client.id, secret: info.client.secret, redirectUri: info.client.redirect_uri };
      const { access_token } = await signIn(info.auth_url, client, info.user);
      const me = async () => UserRecordSchema.parse(await (await fetch(`${info.auth_url}/user/me`, { headers: { authorization: `Bearer ${access_token}` } })).json());

      const home = info.hubs.find((hub) => hub.name === 'Home')!;
      const before = home.localUrl!;
      expect((await me()).hubs.find((hub) => hub._id === home.id)?.localUrl).toBe(before);

      await stack.relocateHub(home.id);
      const after = stack.hubs[0]!.url;
      expect(after).not.toBe(before);
      expect(await ping(after, home.id)).toBe(home.id);
      await expect(fetch(`${before}/api/manager/system/ping?id=${home.id}`)).rejects.toThrow();
      expect((await me()).hubs.find((hub) => hub._id === home.id)).toMatchObject({ localUrl: after, localUrlSecure: null, remoteUrl: null });
      expect(info.hubs[0]!.localUrl).toBe(after);
    } finally {
      await stack.close();
    }
  });
});
