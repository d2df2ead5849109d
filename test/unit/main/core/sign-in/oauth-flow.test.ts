import { describe, expect, it, vi } from 'vitest';
import { createOAuthFlow, SIGN_IN_LIFETIME_MS } from '../../../../../main/core/sign-in/oauth-flow';
import { s256Challenge } from '../../../../../main/core/sign-in/pkce';
import type { TokenEndpoint } from '../../../../../main/core/sign-in/token-endpoint';
import { recordingLogger, TEST_BACKEND, tokens } from '../../../../support/core-fakes';
import { manualSchedule } from '../fake-listen-server';

function setup() {
  const opened: string[] = [];
  let now = 1_000_000;
  const exchanges: { code: string; verifier: string; redirectUri: string }[] = [];
  const tokenEndpoint: TokenEndpoint = {
    exchangeCode: vi.fn(async (code: string, verifier: string, redirectUri: string) => {
      exchanges.push({ code, verifier, redirectUri });
      return { ok: true as const, tokens: tokens(1) };
    }),
    refresh: vi.fn(),
  };
  const logger = recordingLogger();
  const onExpired = vi.fn();
  const schedule = manualSchedule();
  const flow = createOAuthFlow({
    backend: TEST_BACKEND,
    tokenEndpoint,
    openExternal: async (url) => void opened.push(url),
    clock: { now: () => now },
    logger,
    onExpired,
    schedule: schedule.schedule,
  });
  const lastUrl = () => new URL(opened.at(-1) as string);
  return { flow, opened, exchanges, logger, onExpired, schedule, lastUrl, advance: (ms: number) => (now += ms) };
}

describe('OAuth authorisation code flow (RFC 8252)', () => {
  it('opens the authorisation page with the interface parameters, PKCE S256 and a state', async () => {
    const { flow, lastUrl } = setup();
    await flow.start();
    const url = lastUrl();
    expect(url.origin + url.pathname).toBe('https://cloud.example.test/oauth2/authorise');
    expect(url.searchParams.get('authorization_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('hubdesk-test');
    expect(url.searchParams.get('redirect_uri')).toBe('io.hubdesk.app:/oauth/callback');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43,}$/);
    expect(url.toString()).not.toContain('test-secret');
  });

  it('exchanges the code of a matching callback with the verifier behind the challenge', async () => {
    const { flow, exchanges, lastUrl } = setup();
    await flow.start();
    const state = lastUrl().searchParams.get('state');
    const result = await flow.handleCallback({ code: 'the-code', state });
    expect(result).toEqual({ kind: 'tokens', tokens: tokens(1) });
    expect(exchanges).toHaveLength(1);
    expect(s256Challenge(exchanges[0]!.verifier)).toBe(lastUrl().searchParams.get('code_challenge'));
    expect(exchanges[0]!.redirectUri).toBe(TEST_BACKEND.redirectUri);
  });

  it('ignores an unsolicited callback and logs it', async () => {
    const { flow, exchanges, logger } = setup();
    expect(await flow.handleCallback({ code: 'c', state: 's' })).toEqual({ kind: 'ignored' });
    expect(exchanges).toHaveLength(0);
    expect(logger.lines.some((l) => l.level === 'warn' && l.message.includes('unsolicited'))).toBe(true);
  });

  it('ignores a callback whose state does not match, and keeps the real sign-in pending', async () => {
    const { flow, exchanges, lastUrl } = setup();
    await flow.start();
    const state = lastUrl().searchParams.get('state') as string;
    expect(await flow.handleCallback({ code: 'forged', state: `${state}x` })).toEqual({ kind: 'ignored' });
    expect(await flow.handleCallback({ code: 'forged' })).toEqual({ kind: 'ignored' });
    expect(exchanges).toHaveLength(0);
    expect((await flow.handleCallback({ code: 'real', state })).kind).toBe('tokens');
    expect(exchanges.map((e) => e.code)).toEqual(['real']);
  });

  it('uses a state once: a replayed redirect is ignored', async () => {
    const { flow, exchanges, lastUrl } = setup();
    await flow.start();
    const state = lastUrl().searchParams.get('state');
    await flow.handleCallback({ code: 'c1', state });
    expect(await flow.handleCallback({ code: 'c1', state })).toEqual({ kind: 'ignored' });
    expect(exchanges).toHaveLength(1);
  });

  it('a new sign-in replaces the pending one: the old state no longer works', async () => {
    const { flow, lastUrl } = setup();
    await flow.start();
    const first = lastUrl().searchParams.get('state');
    await flow.start();
    expect(await flow.handleCallback({ code: 'c', state: first })).toEqual({ kind: 'ignored' });
  });

  it('reports a declined consent and other authorisation errors without exchanging', async () => {
    const { flow, exchanges, lastUrl } = setup();
    await flow.start();
    expect(await flow.handleCallback({ error: 'access_denied', state: lastUrl().searchParams.get('state') })).toEqual({ kind: 'declined' });
    await flow.start();
    const result = await flow.handleCallback({ error: 'server_error\u0000', state: lastUrl().searchParams.get('state') });
    expect(result).toMatchObject({ kind: 'failed' });
    expect(JSON.stringify(result)).not.toContain('\u0000');
    expect(exchanges).toHaveLength(0);
  });

  it('ignores malformed callback parameters', async () => {
    const { flow, lastUrl } = setup();
    await flow.start();
    const state = lastUrl().searchParams.get('state');
    expect(await flow.handleCallback({ code: 42, state })).toEqual({ kind: 'ignored' });
    expect(await flow.handleCallback({ code: 'x'.repeat(5000), state })).toEqual({ kind: 'ignored' });
    expect(await flow.handleCallback('io.hubdesk.app:/oauth/callback')).toEqual({ kind: 'ignored' });
  });

  it('refuses a callback that arrives after the sign-in expired', async () => {
    const { flow, exchanges, lastUrl, advance } = setup();
    await flow.start();
    const state = lastUrl().searchParams.get('state');
    advance(SIGN_IN_LIFETIME_MS + 1);
    expect(await flow.handleCallback({ code: 'late', state })).toEqual({ kind: 'expired' });
    expect(exchanges).toHaveLength(0);
  });

  it('cancel forgets the pending sign-in', async () => {
    const { flow, lastUrl, schedule } = setup();
    await flow.start();
    const state = lastUrl().searchParams.get('state');
    expect(flow.cancel()).toBe(true);
    expect(flow.cancel()).toBe(false);
    expect(await flow.handleCallback({ code: 'c', state })).toEqual({ kind: 'ignored' });
    expect(schedule.pending()).toEqual([]); // its expiry timer is cancelled too
  });

  it('a pending sign-in runs out after its lifetime: onExpired once, and a later callback finds nothing', async () => {
    const { flow, lastUrl, schedule, onExpired } = setup();
    await flow.start();
    const state = lastUrl().searchParams.get('state');
    const [expiry] = schedule.pending(SIGN_IN_LIFETIME_MS);
    schedule.fire(expiry!);
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(await flow.handleCallback({ code: 'late', state })).toEqual({ kind: 'ignored' });
  });

  it('a new sign-in replaces the pending one and its timer: the old timer expires nothing', async () => {
    const { flow, schedule, onExpired } = setup();
    await flow.start();
    const [first] = schedule.tasks;
    await flow.start();
    expect(first!.cancelled).toBe(true);
    first!.run(); // even if a cancelled timer ran late
    expect(onExpired).not.toHaveBeenCalled();
    expect(flow.cancel()).toBe(true);
  });
});

describe('OAuth flow: a browser that cannot be opened', () => {
  it('keeps the sign-in pending with its page, opens it again on request, and accepts its callback', async () => {
    const opened: string[] = [];
    let browserWorks = false;
    const flow = createOAuthFlow({
      backend: TEST_BACKEND,
      tokenEndpoint: { exchangeCode: vi.fn(async () => ({ ok: true as const, tokens: tokens(1) })), refresh: vi.fn() },
      openExternal: async (url) => {
        if (!browserWorks) throw new Error('no browser');
        opened.push(url);
      },
      clock: { now: () => 1_000_000 },
      logger: recordingLogger(),
      onExpired: vi.fn(),
      schedule: manualSchedule().schedule,
    });
    expect(await flow.reopen()).toBe(false); // nothing pending yet
    const { url, opened: wasOpened } = await flow.start();
    expect(wasOpened).toBe(false);
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    expect(url).not.toContain('test-secret');
    await expect(flow.reopen()).rejects.toThrow('no browser');
    browserWorks = true;
    expect(await flow.reopen()).toBe(true);
    expect(opened).toEqual([url]);
    const state = new URL(url).searchParams.get('state');
    expect(await flow.handleCallback({ code: 'c', state })).toEqual({ kind: 'tokens', tokens: tokens(1) });
    expect(await flow.reopen()).toBe(false); // used up
  });
});
