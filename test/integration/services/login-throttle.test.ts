/**
 * Password guessing on the cloud's sign-in page and the tools portal's, over real sockets: the backoff
 * per account and per network (services/shared/login-throttle.ts), its 429 answer, that a backed-off
 * attempt never reaches the password check, and that the right password works once the wait is over.
 * Time is the services' injected clock; nothing sleeps.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../main/core/shared/ports';
import { type RunningCloud, startCloud } from '../../../services/cloud/cloud';
import { UserDirectory } from '../../../services/cloud/users';
import { createWebhookStore } from '../../../services/forwarder/webhook-store';
import { type RunningToolsPortal, startToolsPortal } from '../../../services/tools/tools-portal';
import { authoriseUrl } from './oauth-helpers';

const USER = { email: 'ada@example.test', password: 'correct horse battery' };
const UNKNOWN = 'nobody@example.test';
const CLIENT = { id: 'web', secret: 'web-secret', redirectUri: 'https://web.example.test/cb' };

interface Answer {
  status: number;
  retryAfter: string | null;
  html: string;
}

/** A running service with the clock it reads and the events it logged. */
interface Fixture {
  clock: { now: number };
  logged: string[];
  /** One sign-in attempt on a fresh form, as a new browser would make it; `from` is the client's source address. */
  signIn(email: string, password: string, from?: string): Promise<Answer>;
  close(): Promise<void>;
}

const running: Fixture[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((fixture) => fixture.close()));
});

/** Connections from another loopback address: the whole 127.0.0.0/8 reaches a server on 127.0.0.1. */
const agents = new Map<string, Agent>();
afterAll(async () => {
  await Promise.all([...agents.values()].map((agent) => agent.close()));
});
function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }, from: string) {
  if (!agents.has(from)) agents.set(from, new Agent({ localAddress: from }));
  return undiciFetch(url, { ...init, redirect: 'manual', dispatcher: agents.get(from) });
}

function recordingLogger(logged: string[]): Logger {
  const record = (message: string) => void logged.push(message);
  return { info: record, warn: record, error: record };
}

async function answer(response: Awaited<ReturnType<typeof undiciFetch>>): Promise<Answer> {
  return { status: response.status, retryAfter: response.headers.get('retry-after'), html: await response.text() };
}

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const CHEAP_SCRYPT_COST = 1_024;
const FORM = 'application/x-www-form-urlencoded';

async function cloudFixture(): Promise<Fixture> {
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
  const logged: string[] = [];
  const cloud: RunningCloud = await startCloud({
    clients: [{ id: CLIENT.id, secret: CLIENT.secret, name: 'Web App', native: false, redirectUris: [CLIENT.redirectUri], scopes: ['devices'] }],
    users: [{ _id: 'u1', ...USER, firstname: 'Ada', lastname: 'Lovelace', hubs: [] }],
    now: () => clock.now,
    logger: recordingLogger(logged),
    // These tests count checks and waits, not what one check costs: a cheap hash keeps a hundred checks quick on a busy machine.
    scryptCost: CHEAP_SCRYPT_COST,
  });
  const fixture: Fixture = {
    clock,
    logged,
    async signIn(email, password, from = '127.0.0.1') {
      const page = await request(authoriseUrl(cloud.url, { authorization_type: 'code', client_id: CLIENT.id, redirect_uri: CLIENT.redirectUri }), {}, from);
      const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
      const html = await page.text();
      const body = form({ request: field(html, 'request'), csrf: field(html, 'csrf'), email, password });
      return answer(await request(`${cloud.url}/oauth2/authorise/login`, { method: 'POST', headers: { cookie, 'content-type': FORM }, body }, from));
    },
    close: () => cloud.close(),
  };
  running.push(fixture);
  return fixture;
}

async function portalFixture(): Promise<Fixture> {
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
  const logged: string[] = [];
  const users = await UserDirectory.create([{ _id: 'u1', ...USER, firstname: 'Ada', lastname: 'Lovelace', hubs: [] }], CHEAP_SCRYPT_COST);
  const portal: RunningToolsPortal = await startToolsPortal({ store: createWebhookStore(), users, now: () => clock.now, logger: recordingLogger(logged) });
  const fixture: Fixture = {
    clock,
    logged,
    async signIn(email, password, from = '127.0.0.1') {
      const page = await request(`${portal.url}/webhooks`, {}, from);
      const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
      const body = form({ csrf: field(await page.text(), 'csrf'), email, password });
      return answer(await request(`${portal.url}/sign-in`, { method: 'POST', headers: { cookie, 'content-type': FORM }, body }, from));
    },
    close: () => portal.close(),
  };
  running.push(fixture);
  return fixture;
}

/** What each service answers when the password was checked and wrong, and when it was right. */
const SERVICES = [
  {
    name: 'cloud sign-in',
    start: cloudFixture,
    wrong: 200,
    signedIn: (a: Answer) => a.status === 200 && a.html.includes('>Allow</button>'),
    failedEvent: 'cloud: sign-in failed',
  },
  { name: 'tools portal sign-in', start: portalFixture, wrong: 401, signedIn: (a: Answer) => a.status === 303, failedEvent: 'tools: sign-in failed' },
];

describe.each(SERVICES)('$name', ({ start, wrong, signedIn, failedEvent }) => {
  it('lets 5 failures and a 6th through, then backs off 1 s, 2 s …; a backed-off attempt is not checked; the right password works after the wait', async () => {
    const service = await start();
    for (let i = 0; i < 6; i++) expect((await service.signIn(USER.email, `wrong-${i}`)).status).toBe(wrong);

    const checkedBefore = service.logged.filter((event) => event === failedEvent).length;
    const refused = await service.signIn(` ${USER.email.toUpperCase()}`, USER.password); // the same account, spelt otherwise
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('1');
    expect(refused.html).toContain('Too many failed sign-ins for this account. Try again in 1 second.');
    expect(refused.html).toContain('type="password"'); // the form is there to try again
    expect(signedIn(refused)).toBe(false);
    expect(service.logged.filter((event) => event === failedEvent).length).toBe(checkedBefore); // no password was checked

    service.clock.now += 1_000;
    expect((await service.signIn(USER.email, 'wrong-7')).status).toBe(wrong); // 7th failure: now 2 s
    service.clock.now += 1_999;
    const stillWaiting = await service.signIn(USER.email, USER.password);
    expect(stillWaiting.status).toBe(429);
    expect(stillWaiting.retryAfter).toBe('1'); // 1 ms left, rounded up
    service.clock.now += 1;
    expect(signedIn(await service.signIn(USER.email, USER.password))).toBe(true);
    // Success ends the backoff: the next failure is free again (it would wait 4 s otherwise).
    expect((await service.signIn(USER.email, 'wrong-8')).status).toBe(wrong);
    expect((await service.signIn(USER.email, 'wrong-9')).status).toBe(wrong);
  });

  it('throttles an unknown e-mail exactly as a known one (no user enumeration)', async () => {
    const service = await start();
    const trace = async (email: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 9; i++) {
        const attempt = await service.signIn(email, `wrong-${i}`);
        seen.push(`${attempt.status} ${attempt.retryAfter} ${/Too many[^<]*|incorrect/.exec(attempt.html)?.[0]}`);
        if (i === 6) service.clock.now += 1_000;
      }
      return seen;
    };
    const known = await trace(USER.email);
    expect(known.filter((line) => line.startsWith('429'))).not.toHaveLength(0);
    expect(await trace(UNKNOWN)).toEqual(known);
  });

  it('counts guesses sent in parallel before their passwords are checked', async () => {
    const service = await start();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => service.signIn(USER.email, `parallel-${i}`)));
    // 5 free failures and the 6th are checked; the other six arrive while the 1 s wait runs.
    expect(answers.filter((a) => a.status === wrong)).toHaveLength(6);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(6);
  });

  it('throttles one network guessing at many accounts, and not another network', async () => {
    const service = await start();
    for (let i = 0; i < 21; i++) expect((await service.signIn(`user${i}@example.test`, 'guess')).status).toBe(wrong);
    const spraying = await service.signIn('fresh@example.test', 'guess');
    expect(spraying.status).toBe(429);
    expect(spraying.html).toContain('Too many failed sign-ins from your network. Try again in 1 second.');
    expect((await service.signIn('fresh@example.test', 'guess', '127.0.0.2')).status).toBe(wrong);
    // The account's own count follows it to any network.
    for (let i = 0; i < 6; i++) await service.signIn(USER.email, 'guess', '127.0.0.3');
    expect((await service.signIn(USER.email, USER.password, '127.0.0.4')).status).toBe(429);
  });
});

describe('the cost of guessing', () => {
  it('makes 100 password checks against one account take 76,623 s (21.3 h) of waiting for an attacker who obeys Retry-After', async () => {
    const service = await cloudFixture();
    const start = service.clock.now;
    let checked = 0;
    while (checked < 100) {
      const attempt = await service.signIn(USER.email, `guess-${checked}`);
      if (attempt.status === 429) service.clock.now += Number(attempt.retryAfter) * 1000;
      else checked++;
    }
    // Checks 1–6 are free; before check k (7 ≤ k ≤ 16) the wait is 2^(k-7) s, from check 17 on the 15-minute cap.
    expect((service.clock.now - start) / 1000).toBe(1023 + 84 * 900);
  });
});
