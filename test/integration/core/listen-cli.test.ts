/**
 * `npm run listen` (main/listen-cli.ts) as its own process against the real forwarder, also its own
 * process: it registers, a posted webhook reaches the local server with its bytes and is printed as one
 * line (time, method, path, size, status, ms); SIGINT closes it with exit code 0; a wrong secret is a
 * refusal (exit 1) and a bad argument is said with the usage (exit 2).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runForwarderCli } from '../../support/forwarder-cli';
import { startProgram } from '../../support/service-program';

/**
 * The forwarder as deployed (out/services, built by the integration project's global setup): its start
 * compiles nothing, so on a busy machine the test's time goes to what it tests, the listen CLI under tsx.
 */
const startForwarder = () => runForwarderCli([], 'built');

const runListen = (args: string[]) =>
  startProgram(process.execPath, ['--import', 'tsx', 'main/listen-cli.ts', ...args], { ...process.env, HUBDESK_WEBHOOK_URL: '' });

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('npm run listen', () => {
  it('forwards a posted webhook to the local server, prints its line, and exits 0 on SIGINT', async () => {
    const forwarder = startForwarder();
    const info = await forwarder.info;
    const received: { method: string; url: string; headers: Record<string, unknown>; body: Buffer }[] = [];
    const local = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(201).end();
      });
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void local.close());
    const forwardTo = `http://127.0.0.1:${(local.address() as AddressInfo).port}/hook`;

    const listen = runListen([
      '--webhook',
      info.webhook.id,
      '--secret',
      info.webhook.secret,
      '--key',
      'lamp-1',
      '--forward-to',
      forwardTo,
      '--forwarder',
      info.webhook_url,
    ]);
    await until(() => listen.output().stderr.includes('listen: connected'));
    const body = Buffer.from('{"device":{"id":"lamp-1"},"text":"héllo"}');
    const intake = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}?source=cli`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'sig' },
      body,
    });
    expect(intake.status).toBe(202);
    await until(() => listen.output().stdout.includes('\n'));

    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hook?source=cli' });
    expect(received[0]!.body.equals(body)).toBe(true);
    expect(received[0]!.headers['x-signature']).toBe('sig');
    expect(listen.output().stdout).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  POST /hook\\?source=cli  ${body.length} B  201  \\d+ ms\\n$`));

    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    expect(listen.output().stderr).toContain('listen: stopping');
    forwarder.child.kill('SIGTERM');
    expect(await forwarder.exited).toBe(0);
    // The secret is never printed.
    expect(JSON.stringify(listen.output())).not.toContain(info.webhook.secret);
  });

  it('a wrong secret is refused by the forwarder: exit 1 with the reason', async () => {
    const forwarder = startForwarder();
    const info = await forwarder.info;
    const listen = runListen([
      '--webhook',
      info.webhook.id,
      '--secret',
      'not-the-secret',
      '--key',
      'lamp-1',
      '--forward-to',
      'http://127.0.0.1:9/hook',
      '--forwarder',
      info.webhook_url,
    ]);
    expect(await listen.exited).toBe(1);
    expect(listen.output().stderr).toContain('The forwarder refused the webhook secret.');
    forwarder.child.kill('SIGTERM');
    await forwarder.exited;
  });

  it('a bad argument: the reason and the usage, exit code 2', async () => {
    const listen = runListen([
      '--webhook',
      'wh1',
      '--secret',
      'long-enough-secret',
      '--key',
      'a',
      '--forward-to',
      'http://192.0.2.7/hook',
      '--forwarder',
      'http://127.0.0.1:9',
    ]);
    expect(await listen.exited).toBe(2);
    expect(listen.output().stderr).toMatch(/^--forward-to: Forward to https:\/\/…, or to http:\/\/ on this computer only.*\nUsage: npm run listen/s);
  });
});
