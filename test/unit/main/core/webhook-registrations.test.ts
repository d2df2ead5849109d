import { describe, expect, it, vi } from 'vitest';
import { WebhookRegistrationInputSchema, WEBHOOK_MAX_KEY_VALUES } from '../../../../common/ipc-contract';
import type { SecretCipher } from '../../../../main/core/ports';
import { ACK_FLUSH_MS, ackKey, createWebhookRegistrations, REGISTRATIONS_KEY } from '../../../../main/core/webhook-registrations';
import { fakeCipher, memoryStore, recordingLogger } from '../../../support/core-fakes';

const SECRET = 'super-secret-webhook-key';
const input = { id: 'wh-1', secret: SECRET, routing: { kind: 'keys' as const, values: ['lamp-1', 5] } };
const TAP_SECRET = 'tap-credential-secret-abcdefghij';
const TAP_CREDENTIAL = `tc_0123456789abcdef.${TAP_SECRET}`;

function setup(backend: SecretCipher['backend'] = 'aes-256-gcm', storage: 'encrypted' | 'memory-only' = 'encrypted') {
  const store = memoryStore();
  const cipher = fakeCipher(backend);
  const logger = recordingLogger();
  const registrations = createWebhookRegistrations({ cipher, store, logger, storage: () => storage });
  return { store, cipher, logger, registrations };
}

describe('webhook registrations', () => {
  it('keeps the secret encrypted in settings and decrypts it on load', async () => {
    const { store, registrations } = setup();
    const added = await registrations.add(input);
    expect(added).toMatchObject({ id: 'wh-1', routing: input.routing, secret: SECRET });
    expect(JSON.stringify(store.data.get(REGISTRATIONS_KEY))).not.toContain(SECRET);
    const [loaded] = await registrations.load();
    expect(loaded).toEqual(added);
  });

  it('keeps the secret in memory only when the cipher does not really encrypt', async () => {
    const { store, registrations } = setup('basic_text', 'memory-only');
    const added = await registrations.add(input);
    expect(added.secret).toBe(SECRET);
    expect(JSON.stringify(store.data.get(REGISTRATIONS_KEY))).not.toContain(SECRET);
    const [loaded] = await registrations.load();
    expect(loaded).toMatchObject({ id: 'wh-1', secret: null });
  });

  it('keeps the tap credential encrypted too, and tells none (undefined) from lost (null)', async () => {
    const { store, registrations } = setup();
    expect((await registrations.add(input)).tapCredential).toBeUndefined();
    expect((await registrations.add({ ...input, id: 'wh-2', tapCredential: TAP_CREDENTIAL })).tapCredential).toBe(TAP_CREDENTIAL);
    expect(JSON.stringify(store.data.get(REGISTRATIONS_KEY))).not.toContain(TAP_SECRET);
    expect((await registrations.load()).map((r) => r.tapCredential)).toEqual([undefined, TAP_CREDENTIAL]);

    const memoryOnly = setup('basic_text', 'memory-only');
    await memoryOnly.registrations.add({ ...input, tapCredential: TAP_CREDENTIAL });
    expect(JSON.stringify(memoryOnly.store.data.get(REGISTRATIONS_KEY))).not.toContain(TAP_SECRET);
    expect((await memoryOnly.registrations.load())[0]!.tapCredential).toBeNull();
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

  it('gives different registrations different listener ids', async () => {
    const { registrations } = setup();
    const a = await registrations.add(input);
    const b = await registrations.add({ ...input, id: 'wh-2' });
    expect(a.listenerId).not.toBe(b.listenerId);
  });

  it('a secret that cannot be decrypted loads as missing', async () => {
    const { store, registrations } = setup();
    await registrations.add(input);
    const records = store.data.get(REGISTRATIONS_KEY) as { secretRecord: { data: string } }[];
    records[0]!.secretRecord.data = '!!!';
    expect((await registrations.load())[0]!.secret).toBeNull();
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
    expect(await registrations.load()).toEqual([]);
  });
});

describe('acknowledgements', () => {
  it('writes the settings at most once per flush interval, and everything pending on flush', async () => {
    vi.useFakeTimers();
    try {
      const { store, registrations } = setup();
      await registrations.add(input);
      for (let i = 1; i <= 100; i++) registrations.setLastAck('wh-1', `evt-${i}`);
      expect(registrations.lastAck('wh-1')).toBe('evt-100');
      expect(store.data.has(ackKey('wh-1'))).toBe(false);
      await vi.advanceTimersByTimeAsync(ACK_FLUSH_MS);
      expect(store.data.get(ackKey('wh-1'))).toBe('evt-100');
      registrations.setLastAck('wh-1', 'evt-101');
      registrations.flush();
      expect(store.data.get(ackKey('wh-1'))).toBe('evt-101');
    } finally {
      vi.useRealTimers();
    }
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
});
