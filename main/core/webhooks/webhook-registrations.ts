/**
 * The developer's webhook registrations in settings. The secret, the optional tap credential and the optional signing secret are
 * kept by the secret store (secret-store.ts) under its keys, under the same policy as the cloud tokens:
 * with a cipher that does not really encrypt, and no opt-in, they are kept in memory only, so after a
 * restart such a registration is listed without them and must be added again. Views never carry either.
 *
 * On disk: the list under `webhooks:registrations` (entries `v: 2`, no secrets), and each secret under
 * `webhooks:secret:<id>` / `webhooks:tapCredential:<id>` / `webhooks:signingSecret:<id>`. Entries `v: 1` (before the secret store) held
 * their sealed secrets inline; they are migrated when read: the sealed values move, unchanged, to their
 * keys, and the entry is rewritten as `v: 2`.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ForwardToSchema } from '../../../common/forward-target';
import { type WebhookEdit, type WebhookRegistrationInput, WebhookRoutingSchema, type WebhookRouting } from '../../../common/ipc-contract';
import { MAX_WEBHOOK_NAME_LENGTH } from '../../../common/webhook-protocol';
import { type KeyValueStore, type Logger, realSchedule, type Schedule } from '../shared';
import { perKeyQueue } from '../shared';
import type { SecretStore } from '../shared';

export const REGISTRATIONS_KEY = 'webhooks:registrations';
export const ackKey = (webhookId: string) => `webhooks:ack:${webhookId}`;
export const secretKey = (webhookId: string) => `webhooks:secret:${webhookId}`;
export const tapCredentialKey = (webhookId: string) => `webhooks:tapCredential:${webhookId}`;
export const signingSecretKey = (webhookId: string) => `webhooks:signingSecret:${webhookId}`;

export interface WebhookRegistration {
  id: string;
  routing: WebhookRouting;
  label?: string;
  /** The webhook's name as the forwarder last gave it (its owner's name in the developer portal). */
  webhookName?: string;
  /** Chosen once, kept across reconnects and restarts: the forwarder resumes per listenerId. */
  listenerId: string;
  tapId: string;
  /** Null when it was kept in memory only and the app has restarted since (or it could not be read). */
  secret: string | null;
  /** The owner's tap credential (`tc_<id>.<secret>`): undefined when none was given, null when it was set but cannot be read (as `secret`). */
  tapCredential: string | null | undefined;
  /** The third party's signing secret, for the inspector's signature checks: undefined when none was given, null when it cannot be read (as `secret`). */
  signingSecret: string | null | undefined;
  /** Where each delivered message is forwarded (docs/webhooks-app.md, "Forward to"); undefined: nowhere. */
  forwardTo?: string;
}

const StoredSchema = z.object({
  v: z.literal(2),
  id: z.string().min(1).max(200),
  routing: WebhookRoutingSchema,
  label: z.string().max(100).optional(),
  /** Only shown: a bad one is dropped, never the registration with it. */
  webhookName: z.string().min(1).max(MAX_WEBHOOK_NAME_LENGTH).optional().catch(undefined),
  listenerId: z.string().min(1).max(200),
  tapId: z.string().min(1).max(200),
  /** Whether the registration was given a tap credential (kept under tapCredentialKey, when allowed). */
  hasTapCredential: z.boolean(),
  /** Whether it was given a signing secret (kept under signingSecretKey); absent in entries saved before there was one. */
  hasSigningSecret: z.boolean().optional(),
  /** Checked as when it was given: a URL no longer allowed is dropped, never the registration with it. */
  forwardTo: ForwardToSchema.optional().catch(undefined),
});
type Stored = z.infer<typeof StoredSchema>;

/** The format before the secret store: sealed secrets inline, null when they were kept in memory only. */
const SealedSchema = z.object({ backend: z.string(), data: z.string().min(1) });
const StoredV1Schema = StoredSchema.extend({
  v: z.literal(1),
  secretRecord: SealedSchema.nullable(),
  /** Absent: no tap credential; null: kept in memory only. */
  tapCredentialRecord: SealedSchema.nullable().optional(),
}).omit({ hasTapCredential: true, hasSigningSecret: true, webhookName: true, forwardTo: true });

export interface WebhookRegistrations {
  /** Reads and decrypts what settings hold; malformed entries are dropped (and logged). */
  load(): Promise<WebhookRegistration[]>;
  /** Adds, or replaces the registration with the same id (keeping its listenerId, so resuming still works). */
  add(input: WebhookRegistrationInput): Promise<WebhookRegistration>;
  /**
   * Changes a registration in place (its listener ids, name and other secrets kept); resolves with what
   * changed as the registration now stands, secrets as given (`signingSecret`), or undefined when there
   * is no such registration.
   */
  edit(edit: WebhookEdit): Promise<Pick<WebhookRegistration, 'routing' | 'forwardTo'> | undefined>;
  remove(id: string): void;
  /** Keeps the forwarder's name for the webhook with its registration (nothing when it is not registered). */
  setWebhookName(id: string, name: string): void;
  lastAck(id: string): string | undefined;
  /** Kept in memory at once, written to settings at most once per ACK_FLUSH_MS (see flush). */
  setLastAck(id: string, messageId: string): void;
  /** Writes pending acknowledgements now (on dispose). */
  flush(): void;
}

/**
 * Acknowledgements arrive with every message; writing the settings file for each would put a
 * synchronous file write on the hot path. They are coalesced: after a crash the listener resumes at
 * most this much earlier and receives those messages again (at least once, never lost).
 */
export const ACK_FLUSH_MS = 1_000;

export interface WebhookRegistrationsDeps {
  secrets: SecretStore;
  store: KeyValueStore;
  logger: Logger;
  /** Timers of the acknowledgement flush; real timers by default. */
  schedule?: Schedule;
}

export function createWebhookRegistrations({ secrets, store, logger, schedule = realSchedule }: WebhookRegistrationsDeps): WebhookRegistrations {
  const save = (records: Stored[]) => store.set(REGISTRATIONS_KEY, records);
  /** A `v: 1` entry as `v: 2`, its inline sealed secrets handed to the secret store unchanged. */
  const migrate = (old: z.infer<typeof StoredV1Schema>): Stored => {
    const { v: _v, secretRecord, tapCredentialRecord, ...rest } = old;
    if (secretRecord) secrets.adopt(secretKey(old.id), secretRecord);
    else secrets.delete(secretKey(old.id));
    if (tapCredentialRecord) secrets.adopt(tapCredentialKey(old.id), tapCredentialRecord);
    else secrets.delete(tapCredentialKey(old.id));
    return { v: 2, ...rest, hasTapCredential: tapCredentialRecord !== undefined };
  };
  const stored = (): Stored[] => {
    const raw = store.get(REGISTRATIONS_KEY);
    if (!Array.isArray(raw)) return [];
    let migrated = false;
    const records = raw.flatMap((entry): Stored[] => {
      const parsed = StoredSchema.safeParse(entry);
      if (parsed.success) return [parsed.data];
      const old = StoredV1Schema.safeParse(entry);
      if (old.success) {
        migrated = true;
        return [migrate(old.data)];
      }
      logger.warn('webhooks: dropped a malformed saved registration');
      return [];
    });
    if (migrated) {
      save(records);
      logger.info('webhooks: moved the saved registrations to the current format', { count: records.length });
    }
    return records;
  };
  const secretOf = async (key: string): Promise<string | null> => {
    const read = await secrets.get(key);
    return read.status === 'found' ? read.value : null;
  };
  const pendingAcks = new Map<string, string>();
  let cancelFlush: (() => void) | undefined;
  const flush = () => {
    cancelFlush?.();
    cancelFlush = undefined;
    for (const [id, messageId] of pendingAcks) store.set(ackKey(id), messageId);
    pendingAcks.clear();
  };

  const oneChangeAtATime = perKeyQueue();
  const add = async (input: WebhookRegistrationInput): Promise<WebhookRegistration> => {
    const previous = stored().find((record) => record.id === input.id);
    if (input.tapCredential === undefined) secrets.delete(tapCredentialKey(input.id));
    if (input.signingSecret === undefined) secrets.delete(signingSecretKey(input.id));
    await Promise.all([
      secrets.set(secretKey(input.id), input.secret),
      input.tapCredential !== undefined && secrets.set(tapCredentialKey(input.id), input.tapCredential),
      input.signingSecret !== undefined && secrets.set(signingSecretKey(input.id), input.signingSecret),
    ]);
    const record: Stored = {
      v: 2,
      id: input.id,
      routing: input.routing,
      ...(input.label !== undefined && { label: input.label }),
      // The same webhook id is the same webhook: its name stays until the forwarder gives another.
      ...(previous?.webhookName !== undefined && { webhookName: previous.webhookName }),
      listenerId: previous?.listenerId ?? `hubdesk-${randomUUID()}`,
      tapId: previous?.tapId ?? `hubdesk-tap-${randomUUID()}`,
      hasTapCredential: input.tapCredential !== undefined,
      hasSigningSecret: input.signingSecret !== undefined,
      ...(input.forwardTo !== undefined && { forwardTo: input.forwardTo }),
    };
    // Read again after the await: another add may have finished meanwhile.
    save([...stored().filter((r) => r.id !== input.id), record]);
    const { v: _v, hasTapCredential: _t, hasSigningSecret: _s, ...rest } = record;
    return { ...rest, secret: input.secret, tapCredential: input.tapCredential, signingSecret: input.signingSecret };
  };
  const edit = async (edit: WebhookEdit): Promise<{ routing: WebhookRouting; forwardTo?: string } | undefined> => {
    if (!stored().some((record) => record.id === edit.id)) return undefined;
    if (edit.signingSecret === null) secrets.delete(signingSecretKey(edit.id));
    else if (edit.signingSecret !== undefined) await secrets.set(signingSecretKey(edit.id), edit.signingSecret);
    // Read again after the await: another change may have finished meanwhile.
    const records = stored();
    const previous = records.find((record) => record.id === edit.id);
    if (!previous) return undefined;
    const { forwardTo: _f, ...kept } = previous;
    const forwardTo = edit.forwardTo === undefined ? previous.forwardTo : (edit.forwardTo ?? undefined);
    const record: Stored = {
      ...kept,
      routing: edit.routing ?? previous.routing,
      hasSigningSecret: edit.signingSecret === undefined ? previous.hasSigningSecret : edit.signingSecret !== null,
      ...(forwardTo !== undefined && { forwardTo }),
    };
    save(records.map((candidate) => (candidate === previous ? record : candidate)));
    return { routing: record.routing, ...(forwardTo !== undefined && { forwardTo }) };
  };

  return {
    async load() {
      return Promise.all(
        stored().map(async (record) => ({
          id: record.id,
          routing: record.routing,
          ...(record.label !== undefined && { label: record.label }),
          ...(record.webhookName !== undefined && { webhookName: record.webhookName }),
          listenerId: record.listenerId,
          tapId: record.tapId,
          secret: await secretOf(secretKey(record.id)),
          tapCredential: record.hasTapCredential ? await secretOf(tapCredentialKey(record.id)) : undefined,
          signingSecret: record.hasSigningSecret ? await secretOf(signingSecretKey(record.id)) : undefined,
          ...(record.forwardTo !== undefined && { forwardTo: record.forwardTo }),
        })),
      );
    },
    // Two changes of one id at once would interleave their secret writes and records (one's routing
    // with the other's secret): each waits for the one before (docs/webhooks-app.md, "Registrations").
    add: (input) => oneChangeAtATime(input.id, () => add(input)),
    edit: (change) => oneChangeAtATime(change.id, () => edit(change)),
    remove(id) {
      save(stored().filter((record) => record.id !== id));
      secrets.delete(secretKey(id));
      secrets.delete(tapCredentialKey(id));
      secrets.delete(signingSecretKey(id));
      pendingAcks.delete(id);
      store.delete(ackKey(id));
    },
    setWebhookName(id, name) {
      const records = stored();
      const record = records.find((candidate) => candidate.id === id);
      if (!record || record.webhookName === name) return;
      save(records.map((candidate) => (candidate === record ? { ...record, webhookName: name } : candidate)));
    },
    lastAck(id) {
      const value = pendingAcks.get(id) ?? store.get(ackKey(id));
      return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
    },
    setLastAck(id, messageId) {
      pendingAcks.set(id, messageId);
      cancelFlush ??= schedule(flush, ACK_FLUSH_MS);
    },
    flush,
  };
}
