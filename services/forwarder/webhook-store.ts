/**
 * The forwarder's webhooks (docs/interface.md §2.6: an id and a secret made in the developer portal), in memory.
 *
 * The secret is kept in the clear, unlike the cloud's tokens: the listener channel verifies HMAC proofs
 * made with it (`HMAC-SHA256(secret, nonce)`), which needs the secret itself, not a hash of it.
 * A key path is validated (and parsed once) when it is set; a legacy function is read-only (docs/interface.md §6.1.5):
 * it exists only on seeded records.
 *
 * Each webhook's entry also holds its owner's tap credentials (at most MAX_TAP_CREDENTIALS per webhook):
 * the tap sees every intake, other hubs' traffic and `Authorization` headers included, so it needs a
 * credential of its own rather than the webhook secret every hub running the app holds. A credential's
 * secret is kept in the clear for the same reason as the webhook secret (it keys an HMAC proof); only
 * `tapCredential` hands it out (to the listener channel), listings never carry it. Revoking one tells
 * the `onTapCredentialRevoked` subscribers at once, so open taps close before the portal answers.
 */
import { randomBytes } from 'node:crypto';
import { type KeyPath, parseKeyPath } from '../../common/key-path';
import { MAX_WEBHOOK_NAME_LENGTH } from '../../common/webhook-protocol';
import { createEmitter } from '../../common/emitter';

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

export interface TapCredential {
  /** `tc_` and 16 random base64url characters. */
  readonly id: string;
  readonly secret: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

/** What the portal lists: never the secret. */
export type TapCredentialInfo = Omit<TapCredential, 'secret'>;

/** Enough for the owner's tools and machines; each one is a standing key to all of the webhook's traffic. */
export const MAX_TAP_CREDENTIALS = 10;

export class TapCredentialLimitError extends Error {
  constructor() {
    super(`this webhook already has ${MAX_TAP_CREDENTIALS} tap credentials; revoke one first`);
  }
}

/**
 * Reads are synchronous (the intake's hot path reads a webhook per request); writes resolve once the
 * change is stored and visible to reads here. In memory that is at once; with Redis
 * (redis/redis-webhooks.ts) once the change stream has brought it back.
 */
export interface WebhookStore {
  create(input: { name: string; ownerId: string }): Promise<WebhookRecord>;
  get(id: string): WebhookRecord | undefined;
  /** The parsed key path of a webhook, or null when it has none (or does not exist). */
  compiledKeyPath(id: string): KeyPath | null;
  /** The owner's webhooks, oldest first. */
  list(ownerId: string): WebhookRecord[];
  /** Rejects with KeyPathError for an invalid key path, Error for an unknown webhook. */
  setKeyPath(id: string, keyPath: string | null): Promise<WebhookRecord>;
  /** Adds a record as is (the stack's demo and legacy webhooks); its key path is validated. */
  seed(record: WebhookRecord): Promise<void>;
  /** A new tap credential of the webhook. Rejects with TapCredentialLimitError at MAX_TAP_CREDENTIALS, Error for an unknown webhook. */
  createTapCredential(webhookId: string): Promise<TapCredential>;
  /** The webhook's tap credentials without their secrets, oldest first ([] for an unknown webhook). */
  tapCredentials(webhookId: string): TapCredentialInfo[];
  /** One credential with its secret, to verify a tap's proof; undefined when unknown or revoked. */
  tapCredential(webhookId: string, credentialId: string): TapCredential | undefined;
  /** False when there was no such credential. Subscribers here are told before this resolves. */
  revokeTapCredential(webhookId: string, credentialId: string): Promise<boolean>;
  /** Returns the unsubscribe function. */
  onTapCredentialRevoked(listener: (webhookId: string, credentialId: string) => void): () => void;
}

/** A webhook as stored: its record and its tap credentials (secrets included), oldest first. */
export interface StoredWebhook {
  readonly record: WebhookRecord;
  readonly taps: readonly TapCredential[];
}

/** A write: the webhook as it is to be from the webhook as it is (undefined: none with that id). Throws to refuse. */
export type WebhookChange = (current: StoredWebhook | undefined) => StoredWebhook;

/** Where writes are stored: `commit` resolves once the table (the reads) shows the change. */
export type CommitWebhook = (id: string, change: WebhookChange) => Promise<void>;

/** `wh_` and 16 random base64url characters: ids cannot be guessed, so knowing one proves it was shared. */
export function newWebhookId(): string {
  return `wh_${randomBytes(12).toString('base64url')}`;
}

/** `tc_` and 16 random base64url characters, like a webhook id: not guessable, and not a secret either. */
function newTapCredentialId(): string {
  return `tc_${randomBytes(12).toString('base64url')}`;
}

const newSecret = () => randomBytes(32).toString('base64url');

interface Entry {
  stored: StoredWebhook;
  keyPath: KeyPath | null;
  /** By id, in creation order. */
  taps: Map<string, TapCredential>;
}

/**
 * The webhooks as reads see them. `put` and `remove` are the only way in: the memory store calls them at
 * once, the Redis mirror as changes arrive. A tap credential that a `put` no longer carries is revoked:
 * the subscribers are told.
 */
export class WebhookTable {
  private readonly entries = new Map<string, Entry>();
  private readonly revocations = createEmitter<{ webhookId: string; credentialId: string }>();

  /** Throws KeyPathError when the record's key path is not valid. */
  put(stored: StoredWebhook): void {
    const keyPath = stored.record.keyPath === null ? null : parseKeyPath(stored.record.keyPath);
    const frozen = Object.freeze({ record: Object.freeze({ ...stored.record }), taps: Object.freeze(stored.taps.map((tap) => Object.freeze({ ...tap }))) });
    const before = this.entries.get(stored.record.id);
    this.entries.set(stored.record.id, { stored: frozen, keyPath, taps: new Map(frozen.taps.map((tap) => [tap.id, tap])) });
    for (const id of before?.taps.keys() ?? []) if (!this.entries.get(stored.record.id)!.taps.has(id)) this.revoked(stored.record.id, id);
  }

  remove(id: string): void {
    const before = this.entries.get(id);
    this.entries.delete(id);
    for (const credentialId of before?.taps.keys() ?? []) this.revoked(id, credentialId);
  }

  clear(): void {
    for (const id of [...this.entries.keys()]) this.remove(id);
  }

  stored(id: string): StoredWebhook | undefined {
    return this.entries.get(id)?.stored;
  }

  ids(): string[] {
    return [...this.entries.keys()];
  }

  get = (id: string): WebhookRecord | undefined => this.entries.get(id)?.stored.record;
  compiledKeyPath = (id: string): KeyPath | null => this.entries.get(id)?.keyPath ?? null;
  list = (ownerId: string): WebhookRecord[] => [...this.entries.values()].map((e) => e.stored.record).filter((record) => record.ownerId === ownerId);
  tapCredentials = (webhookId: string): TapCredentialInfo[] => (this.entries.get(webhookId)?.stored.taps ?? []).map(({ id, createdAt }) => ({ id, createdAt }));
  tapCredential = (webhookId: string, credentialId: string): TapCredential | undefined => this.entries.get(webhookId)?.taps.get(credentialId);

  onTapCredentialRevoked(listener: (webhookId: string, credentialId: string) => void): () => void {
    return this.revocations.on(({ webhookId, credentialId }) => listener(webhookId, credentialId));
  }

  private revoked(webhookId: string, credentialId: string): void {
    this.revocations.emit({ webhookId, credentialId });
  }
}

/** The webhook store, in memory. */
export function createWebhookStore(now: () => number = Date.now): WebhookStore {
  const table = new WebhookTable();
  return webhookStoreOn(table, async (id, change) => table.put(change(table.stored(id))), now);
}

const existing = (id: string, current: StoredWebhook | undefined): StoredWebhook => {
  if (!current) throw new Error(`unknown webhook: ${id}`);
  return current;
};

/** The store's rules (names, the credential limit, key paths) over a table and where its writes go. */
export function webhookStoreOn(table: WebhookTable, commit: CommitWebhook, now: () => number = Date.now): WebhookStore {
  const recordOf = (id: string): WebhookRecord => {
    const record = table.get(id);
    if (!record) throw new Error(`webhook ${id} was stored but is not readable`);
    return record;
  };
  return {
    async create({ name, ownerId }) {
      const trimmed = name.trim();
      if (trimmed === '' || trimmed.length > MAX_WEBHOOK_NAME_LENGTH) throw new Error(`a webhook name has 1 to ${MAX_WEBHOOK_NAME_LENGTH} characters`);
      const record = { id: newWebhookId(), name: trimmed, ownerId, secret: newSecret(), keyPath: null, legacyFunction: null, createdAt: now() };
      await commit(record.id, (current) => {
        if (current) throw new Error(`webhook already exists: ${record.id}`);
        return { record, taps: [] };
      });
      return recordOf(record.id);
    },
    get: table.get,
    compiledKeyPath: table.compiledKeyPath,
    list: table.list,
    async setKeyPath(id, keyPath) {
      // Parsed before it is stored: an invalid key path is refused here, never stored.
      if (keyPath !== null) parseKeyPath(keyPath);
      await commit(id, (current) => {
        const { record, taps } = existing(id, current);
        return { record: { ...record, keyPath }, taps };
      });
      return recordOf(id);
    },
    async seed(record) {
      if (record.keyPath !== null) parseKeyPath(record.keyPath);
      await commit(record.id, (current) => {
        if (current) throw new Error(`webhook already exists: ${record.id}`);
        return { record, taps: [] };
      });
    },
    async createTapCredential(webhookId) {
      const credential = { id: newTapCredentialId(), secret: newSecret(), createdAt: now() };
      await commit(webhookId, (current) => {
        const { record, taps } = existing(webhookId, current);
        if (taps.length >= MAX_TAP_CREDENTIALS) throw new TapCredentialLimitError();
        return { record, taps: [...taps, credential] };
      });
      return credential;
    },
    tapCredentials: table.tapCredentials,
    tapCredential: table.tapCredential,
    async revokeTapCredential(webhookId, credentialId) {
      if (!table.tapCredential(webhookId, credentialId)) return false;
      let revoked = false;
      await commit(webhookId, (current) => {
        const { record, taps } = existing(webhookId, current);
        revoked = taps.some((tap) => tap.id === credentialId);
        return { record, taps: taps.filter((tap) => tap.id !== credentialId) };
      });
      return revoked;
    },
    onTapCredentialRevoked: (listener) => table.onTapCredentialRevoked(listener),
  };
}
