/**
 * The developer portal over HTTP like a browser without script: cookie, CSRF token from the page,
 * form posts. Sign-in, "New Webhook" showing the secret once, the key-path form, and the owner's tap
 * credentials (created and shown once, listed without their secret, revoked).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserDirectory } from '../../../services/cloud/users';
import { createWebhookStore, type WebhookStore } from '../../../services/forwarder/webhook-store';
import { DEMO_USER } from '../../../services/stack';
import { parseTapCredential } from '../../../common/webhook-protocol';
import { type RunningToolsPortal, startToolsPortal } from '../../../services/tools/tools-portal';

let store: WebhookStore;
let portal: RunningToolsPortal;

beforeAll(async () => {
  store = createWebhookStore();
  const users = await UserDirectory.create([
    { ...DEMO_USER, hubs: [] },
    { ...DEMO_USER, _id: 'user-other', email: 'other@hubdesk.test', password: 'other-password', hubs: [] },
  ]);
  portal = await startToolsPortal({ store, users });
});
afterAll(() => portal.close());

/** A browser: keeps the portal's cookie, reads the CSRF token of the last page. */
class Browser {
  cookie = '';
  csrf = '';

  async get(path: string): Promise<{ status: number; html: string; headers: Headers }> {
    return this.answer(await fetch(portal.url + path, { headers: { cookie: this.cookie }, redirect: 'manual' }));
  }

  async post(path: string, form: Record<string, string>, withCsrf = true): Promise<{ status: number; html: string; headers: Headers }> {
    const body = new URLSearchParams(withCsrf ? { csrf: this.csrf, ...form } : form);
    return this.answer(
      await fetch(portal.url + path, {
        method: 'POST',
        headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      }),
    );
  }

  private async answer(response: Response) {
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const html = await response.text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    if (csrf) this.csrf = csrf;
    return { status: response.status, html, headers: response.headers };
  }
}

async function signedIn(user: { email: string; password: string } = DEMO_USER): Promise<Browser> {
  const browser = new Browser();
  await browser.get('/webhooks');
  const answer = await browser.post('/sign-in', { email: user.email, password: user.password });
  expect(answer.status).toBe(303);
  await browser.get('/webhooks'); // follows the redirect, as a browser would: the new session's page and CSRF token
  return browser;
}

const createdId = (html: string) => /Id: <code>(wh_[A-Za-z0-9_-]+)<\/code>/.exec(html)![1]!;

describe('tools portal', () => {
  it('asks for sign-in, refuses a wrong password or a missing CSRF token, and signs in the demo user', async () => {
    const browser = new Browser();
    const first = await browser.get('/webhooks');
    expect(first.status).toBe(200);
    expect(first.html).toContain('<h1>Sign in to the developer tools</h1>');
    expect(first.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(browser.cookie).toMatch(/^hubdesk_tools=/);

    expect((await browser.post('/sign-in', { email: DEMO_USER.email, password: DEMO_USER.password }, false)).status).toBe(400);
    const wrong = await browser.post('/sign-in', { email: DEMO_USER.email, password: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('role="alert"');

    const anonymousCookie = browser.cookie;
    const ok = await browser.post('/sign-in', { email: DEMO_USER.email, password: DEMO_USER.password });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/webhooks');
    expect(browser.cookie).not.toBe(anonymousCookie); // a new session on sign-in
    const list = await browser.get('/webhooks');
    expect(list.html).toContain('<h1>Webhooks</h1>');
    expect(list.html).toContain('<button type="submit">New Webhook</button>');
  });

  it('"New Webhook" creates a webhook and shows its secret once', async () => {
    const browser = await signedIn();
    const created = await browser.post('/webhooks', { name: 'Door <bell>' });
    expect(created.status).toBe(201);
    const id = createdId(created.html);
    const record = store.get(id)!;
    expect(record).toMatchObject({ name: 'Door <bell>', ownerId: DEMO_USER._id, keyPath: null });
    expect(created.html).toContain(`<code id="new-secret">${record.secret}</code>`);
    expect(created.html).toContain('Copy the secret now');
    // Its Copy button, hidden until the one script (allowed by its hash, and nothing else) shows it.
    expect(created.html).toContain('data-copy="new-secret" aria-label="Copy the secret" hidden>Copy</button>');
    const script = /<script>([\s\S]*)<\/script>/.exec(created.html)![1]!;
    expect(created.headers.get('content-security-policy')).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(created.html).toContain('Door &lt;bell&gt;');
    expect(created.html).not.toContain('Door <bell>');

    const later = await browser.get('/webhooks');
    expect(later.html).not.toContain('<script>');
    expect(later.headers.get('content-security-policy')).not.toContain('script-src');
    expect(later.html).toContain(id);
    expect(later.html).not.toContain(record.secret);
    expect((await browser.post('/webhooks', { name: '   ' })).status).toBe(400);
  });

  it('sets a valid key path, refuses an invalid one with its position, and clears it', async () => {
    const browser = await signedIn();
    const id = createdId((await browser.post('/webhooks', { name: 'Sensor' })).html);
    const path = `/webhooks/${id}/key-path`;

    const saved = await browser.post(path, { keyPath: "body.device['id']" });
    expect(saved.status).toBe(303);
    expect(store.get(id)!.keyPath).toBe("body.device['id']");
    expect((await browser.get('/webhooks')).html).toContain('<button type="submit">Save key path</button>');

    const refused = await browser.post(path, { keyPath: 'body.items[0' });
    expect(refused.status).toBe(400);
    const shown = /Key path not saved: ([^<]*) \(position (\d+)\)/.exec(refused.html);
    expect(shown).not.toBeNull();
    expect(shown![1]).toContain(`at ${shown![2]}`);
    expect(Number(shown![2])).toBe('body.items[0'.length);
    expect(refused.html).toContain('aria-invalid="true"');
    expect(store.get(id)!.keyPath).toBe("body.device['id']"); // unchanged

    expect((await browser.post(path, { keyPath: '' })).status).toBe(303);
    expect(store.get(id)!.keyPath).toBeNull();
  });

  it("does not let a user touch another owner's webhook", async () => {
    const other = await store.create({ name: 'Not yours', ownerId: 'someone-else' });
    const browser = await signedIn();
    expect((await browser.get('/webhooks')).html).not.toContain(other.id);
    expect((await browser.post(`/webhooks/${other.id}/key-path`, { keyPath: 'body.a' })).status).toBe(404);
    expect(store.get(other.id)!.keyPath).toBeNull();
  });

  it('"New tap credential" shows it once, the list shows id and time only, and Revoke removes it', async () => {
    const browser = await signedIn();
    const id = createdId((await browser.post('/webhooks', { name: 'Tapped' })).html);
    const created = await browser.post(`/webhooks/${id}/tap-credentials`, {});
    expect(created.status).toBe(201);
    const shown = /<code id="new-tap-credential">([^<]+)<\/code>/.exec(created.html)?.[1];
    const credential = parseTapCredential(shown ?? '');
    expect(credential).toBeDefined();
    expect(store.tapCredential(id, credential!.id)?.secret).toBe(credential!.secret);
    expect(created.html).toContain('Copy the tap credential now');
    expect(created.headers.get('cache-control')).toBe('no-store');

    const later = await browser.get('/webhooks');
    expect(later.html).toContain(`<code>${credential!.id}</code>, created ${new Date(store.tapCredentials(id)[0]!.createdAt).toISOString()}`);
    expect(later.html).not.toContain(credential!.secret);
    expect(later.html).toContain(`action="/webhooks/${id}/tap-credentials/${credential!.id}/revoke"`);

    expect((await browser.post(`/webhooks/${id}/tap-credentials/${credential!.id}/revoke`, {}, false)).status).toBe(400); // no CSRF token
    expect(store.tapCredentials(id)).toHaveLength(1);
    const revoked = await browser.post(`/webhooks/${id}/tap-credentials/${credential!.id}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect(store.tapCredentials(id)).toEqual([]);
    expect((await browser.get('/webhooks')).html).not.toContain(credential!.id);
    expect((await browser.post(`/webhooks/${id}/tap-credentials/${credential!.id}/revoke`, {})).status).toBe(404);
  });

  it('refuses a tap credential over the limit with the reason, and any without a CSRF token', async () => {
    const browser = await signedIn();
    const id = createdId((await browser.post('/webhooks', { name: 'Full' })).html);
    expect((await browser.post(`/webhooks/${id}/tap-credentials`, {}, false)).status).toBe(400);
    for (let i = 0; i < 10; i++) expect((await browser.post(`/webhooks/${id}/tap-credentials`, {})).status).toBe(201);
    const over = await browser.post(`/webhooks/${id}/tap-credentials`, {});
    expect(over.status).toBe(400);
    expect(over.html).toContain('already has 10 tap credentials; revoke one first');
    expect(store.tapCredentials(id)).toHaveLength(10);
  });

  it("another user can neither see, create nor revoke a webhook's tap credentials", async () => {
    const owner = await signedIn();
    const id = createdId((await owner.post('/webhooks', { name: 'Mine' })).html);
    const credential = await store.createTapCredential(id);
    const intruder = await signedIn({ email: 'other@hubdesk.test', password: 'other-password' });
    const page = await intruder.get('/webhooks');
    expect(page.html).not.toContain(id);
    expect(page.html).not.toContain(credential.id);
    const create = await intruder.post(`/webhooks/${id}/tap-credentials`, {});
    expect(create.status).toBe(404);
    expect(create.html).not.toContain('new-tap-credential');
    expect((await intruder.post(`/webhooks/${id}/tap-credentials/${credential.id}/revoke`, {})).status).toBe(404);
    expect(store.tapCredentials(id).map((c) => c.id)).toEqual([credential.id]);
  });
});
