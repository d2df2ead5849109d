/**
 * `npm run forwarder` (docs/services.md, "Running the forwarder alone"): the forwarder and its portal alone, one JSON line on stdout, and a
 * drain on SIGTERM that tells listeners to reconnect elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { CLOSE_GOING_AWAY } from '../../../common/webhook-protocol';
import type { ChannelClosed } from '../../support/webhook-listener';
import { TestListener } from '../../support/webhook-listener';
import { runForwarderCli as run } from '../../support/forwarder-cli';

describe('npm run forwarder', () => {
  it('prints one line with its URLs, forwards, and on SIGTERM drains: listeners are told to go elsewhere, exit 0', async () => {
    const cli = run(['--port', '0', '--portal-port', '0']);
    const info = await cli.info;
    // Health and metrics on the admin listener (loopback), not on the public port.
    expect(new URL(info.admin_url).hostname).toBe('127.0.0.1');
    expect(info.admin_url).not.toBe(info.webhook_url);
    expect(info.health).toEqual({ alive: `${info.admin_url}/healthz`, ready: `${info.admin_url}/readyz`, metrics: `${info.admin_url}/metrics` });
    expect((await fetch(info.health.ready)).status).toBe(200);
    expect((await fetch(`${info.webhook_url}/readyz`)).status).toBe(404);
    expect((await fetch(`${info.tools_url}/webhooks`)).status).toBe(200);

    const listener = await TestListener.connect({
      forwarderUrl: info.webhook_url,
      webhookId: info.webhook.id,
      secret: info.webhook.secret,
      listenerId: 'cli-test',
      data: { $key: 'lamp-1' },
    });
    const intake = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device: { id: 'lamp-1' } }),
    });
    expect(intake.status).toBe(202);
    expect((await listener.nextMessage()).body).toEqual({ device: { id: 'lamp-1' } });

    cli.child.kill('SIGTERM');
    expect(((await listener.closed) as ChannelClosed).code).toBe(CLOSE_GOING_AWAY);
    expect(await cli.exited).toBe(0);
    const { stdout, stderr } = cli.output();
    expect(stdout.trim().split('\n')).toHaveLength(1); // logs go to stderr
    expect(stderr).toContain('draining');
    await expect(fetch(info.health.alive)).rejects.toThrow();
  });

  it('refuses a bad option with the reason and the usage, exit code 2 (parseForwarderArgs is unit-tested)', async () => {
    const cli = run(['--port', '70000']);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toContain('--port must be a port number from 0 to 65535, not "70000"\nUsage: npm run forwarder');
    expect(cli.output().stdout).toBe('');
  });
});
