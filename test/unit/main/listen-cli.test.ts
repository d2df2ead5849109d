import { describe, expect, it } from 'vitest';
import { forwardLine, parseListenArgs } from '../../../main/listen-cli';

const base = ['--webhook', 'wh_1', '--secret', 'a-webhook-secret', '--forward-to', 'http://127.0.0.1:3000/hook', '--forwarder', 'http://127.0.0.1:4000'];

describe('parseListenArgs', () => {
  it('takes key values (one or several) or a hub, and the forwarder from the environment when not given', () => {
    expect(parseListenArgs([...base, '--key', 'lamp-1'], {})).toEqual({
      ok: true,
      options: {
        webhookUrl: 'http://127.0.0.1:4000',
        webhookId: 'wh_1',
        secret: 'a-webhook-secret',
        routing: { data: { $key: 'lamp-1' } },
        forwardTo: 'http://127.0.0.1:3000/hook',
      },
    });
    expect(parseListenArgs([...base, '--key', 'a', '--key', 'b'], {})).toMatchObject({ ok: true, options: { routing: { data: { $keys: ['a', 'b'] } } } });
    expect(parseListenArgs([...base, '--hub', 'hub-1'], {})).toMatchObject({ ok: true, options: { routing: { hubId: 'hub-1' } } });
    const withoutForwarder = base.slice(0, -2);
    expect(parseListenArgs([...withoutForwarder, '--key', 'a'], { HUBDESK_WEBHOOK_URL: 'https://forwarder.example/' })).toMatchObject({
      ok: true,
      options: { webhookUrl: 'https://forwarder.example' },
    });
  });

  it.each([
    [
      'no webhook',
      ['--secret', 'a-webhook-secret', '--key', 'a', '--forward-to', 'http://127.0.0.1:3000/', '--forwarder', 'http://127.0.0.1:4000'],
      '--webhook <id> is needed',
    ],
    ['a bad webhook id', [...base, '--webhook', 'a/b', '--key', 'a'], '--webhook: a webhook id'],
    ['a short secret', [...base, '--secret', 'short', '--key', 'a'], '--secret: a webhook secret is 8 to 512 characters'],
    ['no routing', base, 'give --hub <id> or --key <v>'],
    ['both routings', [...base, '--hub', 'h', '--key', 'a'], '--hub and --key exclude each other'],
    ['an empty key', [...base, '--key', ''], '--key: a key value is 1 to 1024 characters'],
    [
      'plain http to another machine',
      [...base, '--key', 'a', '--forward-to', 'http://10.0.0.2:3000/hook'],
      '--forward-to: Forward to https://…, or to http:// on this computer only',
    ],
    ['an unknown option', [...base, '--key', 'a', '--verbose'], "Unknown option '--verbose'"],
    ['a forwarder in the clear elsewhere', [...base, '--key', 'a', '--forwarder', 'http://forwarder.example'], '--forwarder must use https'],
  ])('refuses %s', (_name, args, error) => {
    const parsed = parseListenArgs(args, {});
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toContain(error);
    expect(!parsed.ok && parsed.error).not.toContain('a-webhook-secret');
  });

  it('needs a forwarder from the option or the environment', () => {
    expect(parseListenArgs([...base.slice(0, -2), '--key', 'a'], {})).toEqual({ ok: false, error: '--forwarder <url> is needed (or set HUBDESK_WEBHOOK_URL)' });
  });
});

describe('forwardLine', () => {
  const at = new Date('2026-11-27T20:00:00.000Z');
  const progress = { id: 'm1', queue: { queued: 0, dropped: 0 }, url: 'http://127.0.0.1:3000/hook?a=1', method: 'POST', bytes: 41 };
  it('says the time, method, path, size, status and ms once the forwarding is over, nothing before', () => {
    expect(forwardLine({ ...progress, forward: { state: 'answered', statusCode: 204, durationMs: 12.4, attempts: 1, at: 0 } }, at)).toBe(
      '2026-11-27T20:00:00.000Z  POST /hook?a=1  41 B  204  12 ms',
    );
    expect(forwardLine({ ...progress, forward: { state: 'failed', reason: 'No answer.', attempts: 5, at: 0 } }, at)).toBe(
      '2026-11-27T20:00:00.000Z  POST /hook?a=1  41 B  failed  -  No answer.',
    );
    expect(forwardLine({ ...progress, forward: { state: 'dropped' } }, at)).toContain('dropped');
    expect(forwardLine({ ...progress, forward: { state: 'retrying', attempt: 1, nextAt: 0, last: '500' } }, at)).toBeUndefined();
  });
});
