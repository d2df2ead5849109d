/**
 * The forwarder's webhooks (spec 2.6: an id and a secret made in the developer portal), in memory.
 *
 * The secret is kept in the clear, unlike the cloud's tokens: the listener channel verifies HMAC proofs
 * made with it (`HMAC-SHA256(secret, nonce)`), which needs the secret itself, not a hash of it.
 * A key path is validated (and parsed once) when it is set; a legacy function is read-only (spec 6.1.5):
 * it exists only on seeded records.
 */
import { randomBytes } from 'node:crypto';
import { type KeyPath, parseKeyPath } from '../../common/key-path';

export interface WebhookRecord {
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly secret: string;
  readonly keyPath: string | null;
  readonly legacyFunction: string | null;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

export interface WebhookStore {
  create(input: { name: string; ownerId: string }): WebhookRecord;
  get(id: string): WebhookRecord | undefined;
  /** The parsed key path of a webhook, or null when it has none (or does not exist). */
  compiledKeyPath(id: string): KeyPath | null;
  /** The owner's webhooks, oldest first. */
  list(ownerId: string): WebhookRecord[];
  /** Throws KeyPathError for an invalid key path, Error for an unknown webhook. */
  setKeyPath(id: string, keyPath: string | null): WebhookRecord;
  /** Adds a record as is (the stack's demo and legacy webhooks); its key path is validated. */
  seed(record: WebhookRecord): void;
}

export const MAX_WEBHOOK_NAME_LENGTH = 100;

/** `wh_` and 16 random base64url characters: ids cannot be guessed, so knowing one proves it was shared. */
export function newWebhookId(): string {
  return `wh_${randomBytes(12).toString('base64url')}`;
}

interface Entry {
  record: WebhookRecord;
  keyPath: KeyPath | null;
}

export function createWebhookStore(now: () => number = Date.now): WebhookStore {
  const entries = new Map<string, Entry>();

  const entry = (id: string): Entry => {
    const found = entries.get(id);
    if (!found) throw new Error(`unknown webhook: ${id}`);
    return found;
  };

  const put = (record: WebhookRecord): WebhookRecord => {
    const keyPath = record.keyPath === null ? null : parseKeyPath(record.keyPath);
    const frozen = Object.freeze({ ...record });
    entries.set(record.id, { record: frozen, keyPath });
    return frozen;
  };

  return {
    create({ name, ownerId }) {
      const trimmed = name.trim();
      if (trimmed === '' || trimmed.length > MAX_WEBHOOK_NAME_LENGTH) throw new Error(`a webhook name has 1 to ${MAX_WEBHOOK_NAME_LENGTH} characters`);
      return put({
        id: newWebhookId(),
        name: trimmed,
        ownerId,
        secret: randomBytes(32).toString('base64url'),
        keyPath: null,
        legacyFunction: null,
        createdAt: now(),
      });
    },
    get: (id) => entries.get(id)?.record,
    compiledKeyPath: (id) => entries.get(id)?.keyPath ?? null,
    list: (ownerId) => [...entries.values()].map((e) => e.record).filter((record) => record.ownerId === ownerId),
    setKeyPath(id, keyPath) {
      return put({ ...entry(id).record, keyPath });
    },
    seed(record) {
      if (entries.has(record.id)) throw new Error(`webhook already exists: ${record.id}`);
      put(record);
    },
  };
}
