/**
 * SIGTERM, as a process supervisor or a container runtime sends it, reaches the service and drains it,
 * whichever way it was started (docs/services.md, "Running the built services"): `npm run forwarder`
 * (npm hands the signal to the forwarder itself: no shell in between to die and leave it running),
 * `node out/services/forwarder-cli.js` (the build), and `npm run stack`. Each time the program exits 0,
 * a listener is told to go elsewhere (1001), and no process it started is left.
 */
import { describe, expect, it, vi } from 'vitest';
import { CLOSE_GOING_AWAY } from '../../../common/webhook-protocol';
import { runForwarderCli } from '../../support/forwarder-cli';
import { descendantsOf, isRunning } from '../../support/process-tree';
import { type Launch, startServiceProgram } from '../../support/service-program';
import type { ChannelClosed } from '../../support/webhook-listener';
import { TestListener } from '../../support/webhook-listener';

/** SIGTERM to the process started; its exit code, once it and every process under it are gone. */
async function terminate(program: { child: { pid?: number; kill(signal: NodeJS.Signals): boolean }; exited: Promise<number | null> }): Promise<number | null> {
  const pid = program.child.pid!;
  // npm, and under it whatever the script started (the program; tsx's esbuild service).
  const started = [pid, ...descendantsOf(pid)];
  // Whatever is left is killed when the test ends, so a failure does not leave a forwarder running.
  const leftovers = () => started.filter(isRunning);
  try {
    program.child.kill('SIGTERM');
    const code = await program.exited;
    await vi.waitFor(() => expect(leftovers()).toEqual([]), { timeout: 15_000, interval: 50 });
    return code;
  } finally {
    for (const orphan of leftovers()) process.kill(orphan, 'SIGKILL');
  }
}

describe.each<Launch>(['npm', 'built'])('the forwarder started with %s', (launch) => {
  it('SIGTERM drains it: the listener is told 1001, exit 0, and no process is left', async () => {
    const cli = runForwarderCli(['--port', '0', '--portal-port', '0'], launch);
    const info = await cli.info;
    const listener = await TestListener.connect({
      forwarderUrl: info.webhook_url,
      webhookId: info.webhook.id,
      secret: info.webhook.secret,
      listenerId: `signals-${launch}`,
      data: { $key: 'lamp-1' },
    });
    const intake = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"device":{"id":"lamp-1"}}',
    });
    expect(intake.status).toBe(202);
    expect((await listener.nextMessage()).body).toEqual({ device: { id: 'lamp-1' } });

    expect(await terminate(cli)).toBe(0);
    expect(((await listener.closed) as ChannelClosed).code).toBe(CLOSE_GOING_AWAY);
    expect(cli.output().stderr).toContain('forwarder: draining');
  });
});

describe('npm run stack', () => {
  it('SIGTERM stops the stack: exit 0, and no process is left', async () => {
    const stack = startServiceProgram('stack', [], 'npm');
    const info = JSON.parse(await stack.firstLine) as { webhook_url: string };
    // The forwarder answers (an unknown webhook: its public port serves the intake and the listener channel only).
    const unknownWebhook = () => fetch(`${info.webhook_url}/webhook/wh_none`, { method: 'POST', body: '{}' });
    expect((await unknownWebhook()).status).toBe(404);
    expect(await terminate(stack)).toBe(0);
    expect(stack.output().stderr).toContain('stack: stopping');
    await expect(unknownWebhook()).rejects.toThrow();
  });
});
