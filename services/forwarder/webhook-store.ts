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
  /** A new tap credential of the webhook. Throws TapCredentialLimitError at MAX_TAP_CREDENTIALS, Error for an unknown webhook. */
  createTapCredential(webhookId: string): TapCredential;
  /** The webhook's tap credentials without their secrets, oldest first ([] for an unknown webhook). */
  tapCredentials(webhookId: string): TapCredentialInfo[];
  /** One credential with its secret, to verify a tap's proof; undefined when unknown or revoked. */
  tapCredential(webhookId: string, credentialId: string): TapCredential | undefined;
  /** False when there was no such credential. Subscribers are told before this returns. */
  revokeTapCredential(webhookId: string, credentialId: string): boolean;
  /** Returns the unsubscribe function. */
  onTapCredentialRevoked(listener: (webhookId: string, credentialId: string) => void): () => void;
}

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
  record: WebhookRecord;
  keyPath: KeyPath | null;
  /** By id, in creation order. */
  taps: Map<string, TapCredential>;
}

export function createWebhookStore(now: () => number = Date.now): WebhookStore {
  const entries = new Map<string, Entry>();
  const revokedListeners = new Set<(webhookId: string, credentialId: string) => void>();

  const entry = (id: string): Entry => {
    const found = entries.get(id);
    if (!found) throw new Error(`unknown webhook: ${id}`);
    return found;
  };

  const put = (record: WebhookRecord): WebhookRecord => {
    const keyPath = record.keyPath === null ? null : parseKeyPath(record.keyPath);
    const frozen = Object.freeze({ ...record });
    entries.set(record.id, { record: frozen, keyPath, taps: entries.get(record.id)?.taps ?? new Map() });
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
        secret: newSecret(),
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
    createTapCredential(webhookId) {
      const { taps } = entry(webhookId);
      if (taps.size >= MAX_TAP_CREDENTIALS) throw new TapCredentialLimitError();
      const credential = Object.freeze({ id: newTapCredentialId(), secret: newSecret(), createdAt: now() });
      taps.set(credential.id, credential);
      return credential;
    },
    tapCredentials: (webhookId) => [...(entries.get(webhookId)?.taps.values() ?? [])].map(({ id, createdAt }) => ({ id, createdAt })),
    tapCredential: (webhookId, credentialId) => entries.get(webhookId)?.taps.get(credentialId),
    revokeTapCredential(webhookId, credentialId) {
      if (!entries.get(webhookId)?.taps.delete(credentialId)) return false;
      for (const listener of revokedListeners) listener(webhookId, credentialId);
      return true;
    },
    onTapCredentialRevoked(listener) {
      revokedListeners.add(listener);
      return () => revokedListeners.delete(listener);
    },
  };
}
