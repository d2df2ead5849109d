import { describe, expect, it } from 'vitest';
import { WebhookEditSchema, WebhookRegistrationInputSchema, WEBHOOK_MAX_KEY_VALUES } from '../../../../../common/ipc-contract';
import type { SecretCipher } from '../../../../../main/core/shared/ports';
import { ALLOW_PLAINTEXT_KEY, createSecretStore } from '../../../../../main/core/shared/secret-store';
import {
  ACK_FLUSH_MS,
  ackKey,
  createWebhookRegistrations,
  REGISTRATIONS_KEY,
  secretKey,
  signingSecretKey,
  tapCredentialKey,
} from '../../../../../main/core/webhooks/webhook-registrations';
import { fakeCipher, memoryStore, recordingLogger } from '../../../../support/core-fakes';
import { manualSchedule } from '../fake-listen-server';

const SECRET = 'super-secret-webhook-key';
const input = { id: 'wh-1', secret: SECRET, routing: { kind: 'keys' as const, values: ['lamp-1', 5] } };
const TAP_SECRET = 'tap-credential-secret-abcdefghij';
const TAP_CREDENTIAL = `tc_0123456789abcdef.${TAP_SECRET}`;

/** `store`: the settings of an earlier run, to start again on them (a restart). */
function setup(backend: SecretCipher['backend'] = 'aes-256-gcm', store = memoryStore()) {
  const cipher = fakeCipher(backend);
  const logger = recordingLogger();
  const schedule = manualSchedule();
  const secrets = createSecretStore({ cipher, store, logger });
  const registrations = createWebhookRegistrations({ secrets, store, logger, schedule: schedule.schedule });
  return { store, cipher, logger, secrets, schedule, registrations };
}

const settingsText = (store: ReturnType<typeof memoryStore>) => JSON.stringify([...store.data]);

describe('webhook registrations', () => {
  it('edits in place: the routing, a replaced or cleared signing secret (encrypted), Forward to; the listener ids kept', async () => {
    const { store, registrations } = setup();
    const added = await registrations.add(input);
    const SIGNING = 'whsec_edited-signing-secret';
    expect(
      await registrations.edit({ id: 'wh-1', routing: { kind: 'hub', hubId: 'hub-9' }, signingSecret: SIGNING, forwardTo: 'http://127.0.0.1:3000/hook' }),
    ).toEqual({
      routing: { kind: 'hub', hubId: 'hub-9' },
      forwardTo: 'http://127.0.0.1:3000/hook',
    });
    expect(settingsText(store)).not.toContain(SIGNING);
    expect(store.data.get(signingSecretKey('wh-1'))).toMatchObject({ backend: 'aes-256-gcm' });
    const [loaded] = await setup('aes-256-gcm', store).registrations.load();
    expect(loaded).toEqual({ ...added, routing: { kind: 'hub', hubId: 'hub-9' }, signingSecret: SIGNING, forwardTo: 'http://127.0.0.1:3000/hook' });

    // Absent fields are left as they are; null clears.
    expect(await registrations.edit({ id: 'wh-1', signingSecret: null })).toEqual({
      routing: { kind: 'hub', hubId: 'hub-9' },
      forwardTo: 'http://127.0.0.1:3000/hook',
    });
    expect(await registrations.edit({ id: 'wh-1', forwardTo: null })).toEqual({ routing: { kind: 'hub', hubId: 'hub-9' } });
    expect(store.data.has(signingSecretKey('wh-1'))).toBe(false);
    const [cleared] = await setup('aes-256-gcm', store).registrations.load();
    expect(cleared).toEqual({ ...added, routing: { kind: 'hub', hubId: 'hub-9' }, signingSecret: undefined });
    expect(await registrations.edit({ id: 'no-such', forwardTo: null })).toBeUndefined();
  });

  it('drops a saved Forward-to URL that is not allowed, never the registration with it', async () => {
    const { store, registrations } = setup();
    await registrations.add(input);
    const saved = store.data.get(REGISTRATIONS_KEY) as object[];
    store.set(REGISTRATIONS_KEY, [{ ...saved[0], forwardTo: 'http://192.0.2.1/hook' }]);
    const [loaded] = await registrations.load();
    expect(loaded).toMatchObject({ id: 'wh-1' });
    expect(loaded).not.toHaveProperty('forwardTo');
  });

  it('keeps the secret encrypted in settings and decrypts it on load after a restart', async () => {
    const { store, registrations } = setup();
    const added = await registrations.add(input);
    expect(added).toMatchObject({ id: 'wh-1', routing: input.routing, secret: SECRET });
    expect(settingsText(store)).not.toContain(SECRET);
    expect(store.data.get(secretKey('wh-1'))).toMatchObject({ v: 1, backend: 'aes-256-gcm' });
    const [loaded] = await setup('aes-256-gcm', store).registrations.load();
    expect(loaded).toEqual(added);
  });

  it('keeps the secret in memory only when the cipher does not really encrypt', async () => {
    const { store, registrations } = setup('basic_text');
    const added = await registrations.add(input);
    expect(added.secret).toBe(SECRET);
    expect(settingsText(store)).not.toContain(SECRET);
    expect(store.data.has(secretKey('wh-1'))).toBe(false);
    const [loaded] = await setup('basic_text', store).registrations.load();
    expect(loaded).toMatchObject({ id: 'wh-1', secret: null });
  });

  it('saves secrets kept in memory once the user allows basic_text storage', async () => {
    const { store, registrations, secrets } = setup('basic_text');
    await registrations.add({ ...input, tapCredential: TAP_CREDENTIAL });
    await secrets.setAllowPlaintext(true);
    expect(store.data.get(ALLOW_PLAINTEXT_KEY)).toBe(true);
    const [loaded] = await setup('basic_text', store).registrations.load();
    expect(loaded).toMatchObject({ secret: SECRET, tapCredential: TAP_CREDENTIAL });
  });

  it('keeps the tap credential encrypted too, and tells none (undefined) from lost (null)', async () => {
    const { store, registrations } = setup();
    expect((await registrations.add(input)).tapCredential).toBeUndefined();
    expect((await registrations.add({ ...input, id: 'wh-2', tapCredential: TAP_CREDENTIAL })).tapCredential).toBe(TAP_CREDENTIAL);
    expect(settingsText(store)).not.toContain(TAP_SECRET);
    expect((await setup('aes-256-gcm', store).registrations.load()).map((r) => r.tapCredential)).toEqual([undefined, TAP_CREDENTIAL]);

    const memoryOnly = setup('basic_text');
    await memoryOnly.registrations.add({ ...input, tapCredential: TAP_CREDENTIAL });
    expect(settingsText(memoryOnly.store)).not.toContain(TAP_SECRET);
    expect((await setup('basic_text', memoryOnly.store).registrations.load())[0]!.tapCredential).toBeNull();
  });

  it('keeps the signing secret encrypted, restores it after a restart, and forgets it when replaced without one or removed', async () => {
    const SIGNING = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const { store, registrations } = setup();
    expect((await registrations.add({ ...input, signingSecret: SIGNING })).signingSecret).toBe(SIGNING);
    expect(settingsText(store)).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(store.data.get(signingSecretKey('wh-1'))).toMatchObject({ backend: 'aes-256-gcm' });
    expect((await setup('aes-256-gcm', store).registrations.load())[0]!.signingSecret).toBe(SIGNING);

    await registrations.add(input);
    expect(store.data.has(signingSecretKey('wh-1'))).toBe(false);
    expect((await setup('aes-256-gcm', store).registrations.load())[0]!.signingSecret).toBeUndefined();

    await registrations.add({ ...input, signingSecret: SIGNING });
    registrations.remove('wh-1');
    expect(store.data.has(signingSecretKey('wh-1'))).toBe(false);
  });

  it('replacing a registration with one without a tap credential forgets the old credential', async () => {
    const { store, registrations } = setup();
    await registrations.add({ ...input, tapCredential: TAP_CREDENTIAL });
    await registrations.add(input);
    expect(store.data.has(tapCredentialKey('wh-1'))).toBe(false);
    expect((await setup('aes-256-gcm', store).registrations.load())[0]!.tapCredential).toBeUndefined();
  });

  it('replacing a registration keeps its listener ids, so the forwarder can still resume it', async () => {
    const { registrations } = setup();
    const first = await registrations.add(input);
    const second = await registrations.add({ ...input, secret: 'another-secret-value', routing: { kind: 'hub', hubId: 'hub-1' } });
    expect(second.listenerId).toBe(first.listenerId);
    expect(second.tapId).toBe(first.tapId);
    expect(second.listenerId).not.toBe(second.tapId);
    expect(await registrations.load()).toHaveLength(1);
  });

  it("keeps the forwarder's name for a registered webhook only; a bad saved name is dropped, not the registration", async () => {
    const { registrations, store } = setup();
    await registrations.add(input);
    registrations.setWebhookName('wh-1', 'Lamp events');
    registrations.setWebhookName('wh-unknown', 'Nobody');
    expect((await registrations.load()).map((r) => [r.id, r.webhookName])).toEqual([['wh-1', 'Lamp events']]);
    const [saved] = store.get(REGISTRATIONS_KEY) as Record<string, unknown>[];
    store.set(REGISTRATIONS_KEY, [{ ...saved, webhookName: 'x'.repeat(101) }]);
    const [loaded] = await registrations.load();
    expect(loaded).toMatchObject({ id: 'wh-1', secret: SECRET });
    expect(loaded).not.toHaveProperty('webhookName');
  });

  it('two adds of one id at once end as the later one, whole: never one routing with the other secret, before or after a restart', async () => {
    // Encryption that takes longer for the first add than for the second: without waiting for each
    // other, the first's record would be saved last, over the second's secret.
    const gates: (() => void)[] = [];
    const cipher: SecretCipher = {
      backend: 'aes-256-gcm',
      encrypt: (plaintext) => new Promise((resolve) => gates.push(() => resolve(Buffer.from(plaintext).toString('base64')))),
      decrypt: async (ciphertext) => Buffer.from(ciphertext, 'base64').toString('utf8'),
    };
    const store = memoryStore();
    const logger = recordingLogger();
    const registrations = createWebhookRegistrations({
      secrets: createSecretStore({ cipher, store, logger }),
      store,
      logger,
      schedule: manualSchedule().schedule,
    });
    const first = registrations.add({ ...input, secret: 'first-secret-value', tapCredential: TAP_CREDENTIAL, routing: { kind: 'hub', hubId: 'hub-1' } });
    const second = registrations.add({ ...input, secret: 'second-secret-value', routing: { kind: 'keys', values: ['lamp-2'] } });
    // Let every encryption asked for so far finish, the newest first, until both adds are done.
    let done = false;
    void Promise.all([first, second]).then(() => (done = true));
    while (!done) {
      gates
        .splice(0)
        .reverse()
        .forEach((open) => open());
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await first).routing).toEqual({ kind: 'hub', hubId: 'hub-1' });
    expect(await second).toMatchObject({ secret: 'second-secret-value', routing: { kind: 'keys', values: ['lamp-2'] }, tapCredential: undefined });
    const wholeSecond = { secret: 'second-secret-value', routing: { kind: 'keys', values: ['lamp-2'] }, tapCredential: undefined };
    expect(await registrations.load()).toEqual([expect.objectContaining(wholeSecond)]);
    const restartedLogger = recordingLogger();
    const restarted = createWebhookRegistrations({ secrets: createSecretStore({ cipher, store, logger: restartedLogger }), store, logger: restartedLogger });
    expect(await restarted.load()).toEqual([expect.objectContaining(wholeSecond)]);
  });

  it('gives different registrations different listener ids', async () => {
    const { registrations } = setup();
    const a = await registrations.add(input);
    const b = await registrations.add({ ...input, id: 'wh-2' });
    expect(a.listenerId).not.toBe(b.listenerId);
  });

  it('a secret that cannot be decrypted loads as missing (and is removed)', async () => {
    const { store, registrations } = setup();
    await registrations.add(input);
    store.set(secretKey('wh-1'), { v: 1, backend: 'aes-256-gcm', data: '!!!' });
    const restarted = setup('aes-256-gcm', store);
    expect((await restarted.registrations.load())[0]!.secret).toBeNull();
    expect(store.data.has(secretKey('wh-1'))).toBe(false);
    expect(restarted.logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('drops malformed saved entries', async () => {
    const { store, registrations, logger } = setup();
    await registrations.add(input);
    store.set(REGISTRATIONS_KEY, [...(store.get(REGISTRATIONS_KEY) as unknown[]), { v: 1, id: 5 }, 'junk']);
    expect(await registrations.load()).toHaveLength(1);
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(2);
  });

  it('persists the last acknowledged id, and removing forgets it', async () => {
    const { store, registrations } = setup();
    await registrations.add(input);
    expect(registrations.lastAck('wh-1')).toBeUndefined();
    registrations.setLastAck('wh-1', 'evt-9');
    expect(registrations.lastAck('wh-1')).toBe('evt-9');
    registrations.remove('wh-1');
    expect(store.data.has(ackKey('wh-1'))).toBe(false);
    expect(store.data.has(secretKey('wh-1'))).toBe(false);
    expect(await registrations.load()).toEqual([]);
  });
});

describe('registrations saved before the secret store (v1, secrets inline)', () => {
  /** What webhook-registrations.ts wrote on its own: sealed secrets inside each entry. */
  async function v1Settings() {
    const cipher = fakeCipher('aes-256-gcm');
    const sealed = async (text: string) => ({ backend: 'aes-256-gcm', data: await cipher.encrypt(text) });
    const base = { v: 1, routing: input.routing, tapId: 'hubdesk-tap-x' };
    return memoryStore({
      [REGISTRATIONS_KEY]: [
        { ...base, id: 'wh-1', label: 'Lights', listenerId: 'hubdesk-1', secretRecord: await sealed(SECRET) },
        { ...base, id: 'wh-2', listenerId: 'hubdesk-2', secretRecord: await sealed(SECRET), tapCredentialRecord: await sealed(TAP_CREDENTIAL) },
        { ...base, id: 'wh-3', listenerId: 'hubdesk-3', secretRecord: null, tapCredentialRecord: null },
      ],
      [ackKey('wh-1')]: 'evt-7',
    });
  }

  it('loads them as before, and moves them to the current format', async () => {
    const store = await v1Settings();
    const loaded = await setup('aes-256-gcm', store).registrations.load();
    expect(loaded).toEqual([
      { id: 'wh-1', routing: input.routing, label: 'Lights', listenerId: 'hubdesk-1', tapId: 'hubdesk-tap-x', secret: SECRET, tapCredential: undefined },
      { id: 'wh-2', routing: input.routing, listenerId: 'hubdesk-2', tapId: 'hubdesk-tap-x', secret: SECRET, tapCredential: TAP_CREDENTIAL },
      { id: 'wh-3', routing: input.routing, listenerId: 'hubdesk-3', tapId: 'hubdesk-tap-x', secret: null, tapCredential: null },
    ]);
    const entries = store.data.get(REGISTRATIONS_KEY) as Record<string, unknown>[];
    expect(entries.map((entry) => [entry.v, entry.hasTapCredential])).toEqual([
      [2, false],
      [2, true],
      [2, true],
    ]);
    expect(JSON.stringify(entries)).not.toContain('secretRecord');
    expect(store.data.get(secretKey('wh-2'))).toMatchObject({ v: 1, backend: 'aes-256-gcm' });
    expect(settingsText(store)).not.toContain(SECRET);
    expect(settingsText(store)).not.toContain(TAP_SECRET);

    // The next start reads the current format: the same registrations, nothing migrated again.
    const again = setup('aes-256-gcm', store);
    expect(await again.registrations.load()).toEqual(loaded);
    expect(again.logger.lines.filter((line) => line.message.includes('current format'))).toHaveLength(0);
    expect(again.registrations.lastAck('wh-1')).toBe('evt-7');
  });

  it('with memory-only storage, their saved secrets are not used and leave the disk', async () => {
    const store = await v1Settings();
    const loaded = await setup('basic_text', store).registrations.load();
    expect(loaded.map((r) => r.secret)).toEqual([null, null, null]);
    expect(settingsText(store)).not.toContain('"data"');
  });

  it('replacing or removing one keeps its listener ids, and removes its secrets', async () => {
    const store = await v1Settings();
    const { registrations } = setup('aes-256-gcm', store);
    expect((await registrations.add({ ...input, id: 'wh-1' })).listenerId).toBe('hubdesk-1');
    registrations.remove('wh-2');
    expect(store.data.has(secretKey('wh-2'))).toBe(false);
    expect(store.data.has(tapCredentialKey('wh-2'))).toBe(false);
    expect((await registrations.load()).map((r) => r.id)).toEqual(['wh-3', 'wh-1']);
  });
});

describe('acknowledgements', () => {
  it('writes the settings at most once per flush interval, and everything pending on flush', async () => {
    const { store, registrations, schedule } = setup();
    await registrations.add(input);
    for (let i = 1; i <= 100; i++) registrations.setLastAck('wh-1', `evt-${i}`);
    expect(registrations.lastAck('wh-1')).toBe('evt-100');
    expect(store.data.has(ackKey('wh-1'))).toBe(false);
    expect(schedule.pending()).toHaveLength(1);
    schedule.fire(schedule.pending(ACK_FLUSH_MS)[0]!);
    expect(store.data.get(ackKey('wh-1'))).toBe('evt-100');
    registrations.setLastAck('wh-1', 'evt-101');
    registrations.flush();
    expect(store.data.get(ackKey('wh-1'))).toBe('evt-101');
    expect(schedule.pending()).toHaveLength(0); // the flush cancelled its timer
  });
});

describe('registration input validation', () => {
  const valid = (value: unknown) => WebhookRegistrationInputSchema.safeParse(value).success;
  it('accepts key values as strings and finite numbers, up to the limit', () => {
    expect(valid(input)).toBe(true);
    expect(valid({ ...input, routing: { kind: 'keys', values: Array.from({ length: WEBHOOK_MAX_KEY_VALUES }, (_, i) => i) } })).toBe(true);
    expect(valid({ ...input, tapCredential: TAP_CREDENTIAL })).toBe(true);
    expect(valid({ ...input, tapCredential: `tc_${'a'.repeat(64)}.${'b'.repeat(256)}` })).toBe(true);
  });
  it.each([
    ['too many values', { ...input, routing: { kind: 'keys', values: Array.from({ length: WEBHOOK_MAX_KEY_VALUES + 1 }, (_, i) => i) } }],
    ['no values', { ...input, routing: { kind: 'keys', values: [] } }],
    ['an empty value', { ...input, routing: { kind: 'keys', values: [''] } }],
    ['a non-finite number', { ...input, routing: { kind: 'keys', values: [Infinity] } }],
    ['a boolean value', { ...input, routing: { kind: 'keys', values: [true] } }],
    ['an id with a slash', { ...input, id: 'a/b' }],
    ['an overlong id', { ...input, id: 'a'.repeat(201) }],
    ['a short secret', { ...input, secret: 'short' }],
    ['an overlong secret', { ...input, secret: 'x'.repeat(513) }],
    ['an empty hub id', { ...input, routing: { kind: 'hub', hubId: '' } }],
    ['an unknown routing', { ...input, routing: { kind: 'legacy' } }],
    ['a tap credential without its id', { ...input, tapCredential: TAP_SECRET }],
    ['a tap credential without the tc_ prefix', { ...input, tapCredential: `wh_0123.${TAP_SECRET}` }],
    ['a tap credential with a short secret', { ...input, tapCredential: 'tc_0123.short' }],
    ['a tap credential with a space', { ...input, tapCredential: `tc_0123.${TAP_SECRET} ` }],
    ['an overlong tap credential', { ...input, tapCredential: `tc_${'a'.repeat(64)}.${'b'.repeat(257)}` }],
    ['an empty tap credential', { ...input, tapCredential: '' }],
    ['a tap credential that is not a string', { ...input, tapCredential: 42 }],
  ])('refuses %s', (_name, value) => {
    expect(valid(value)).toBe(false);
  });

  const validForward = (forwardTo: unknown) => WebhookEditSchema.safeParse({ id: 'wh-1', forwardTo }).success;
  it.each(['http://127.0.0.1:3000/hook', 'http://localhost:8080/a?b=c', 'http://[::1]:3000/', 'https://dev.example.com/hook', null])(
    'takes %s as Forward to',
    (url) => {
      expect(validForward(url)).toBe(true);
    },
  );
  it.each([
    ['plain http off this computer', 'http://192.168.1.5:3000/hook'],
    ['plain http to a name', 'http://dev.example.com/hook'],
    ['another scheme', 'ftp://127.0.0.1/hook'],
    ['credentials', 'https://user:pw@dev.example.com/hook'],
    ['a fragment', 'http://127.0.0.1:3000/hook#x'],
    ['not a URL', '127.0.0.1:3000'],
    ['an overlong URL', `https://dev.example.com/${'a'.repeat(2048)}`],
    ['an empty text', ''],
  ])('refuses %s as Forward to', (_name, url) => {
    expect(validForward(url)).toBe(false);
  });
  it('refuses an edit with fields it does not know (the webhook secret is not edited)', () => {
    expect(WebhookEditSchema.safeParse({ id: 'wh-1', secret: 'a-new-secret' }).success).toBe(false);
  });
});
