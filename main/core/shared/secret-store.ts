/**
 * Every secret the app keeps (the cloud tokens, webhook secrets, tap credentials), by key, under one
 * policy decided here and nowhere else:
 * - with a cipher that really encrypts (the OS keychain, AES-256-GCM) a secret is written encrypted;
 * - with Electron's `basic_text` backend (a hard-coded key: obfuscation, not encryption) it is kept in
 *   memory only, unless the user allowed that weaker storage (`setAllowPlaintext`);
 * - with no cipher at all it is kept in memory only, whatever the user allowed.
 * A secret kept in memory only is lost when the app quits. Records on disk are
 * `{ v: 1, backend, data }` (data: the cipher's base64), the format the token vault has always used;
 * a record that cannot be used (malformed, of another cipher, undecryptable, or saved under a policy
 * that no longer allows it) is deleted when read. The notice that says secrets are kept in memory only
 * is decided here too (`notice`), once for all of them.
 */
import { z } from 'zod';
import type { Notice, SessionView } from '../../../common/ipc-contract';
import type { KeyValueStore, Logger, SecretCipher } from './ports';

/** Where secrets go: what the session view calls `tokenStorage`. */
export type SecretStorage = SessionView['tokenStorage'];

/** The user's permission to keep secrets with `basic_text` (its name predates this module). */
export const ALLOW_PLAINTEXT_KEY = 'vault:allowPlaintext';
export const MEMORY_ONLY_NOTICE_ID = 'vault-memory-only';

/** `unreadable`: something was saved under the key but could not be used; it has been deleted. */
export type SecretRead = { status: 'missing' } | { status: 'unreadable' } | { status: 'found'; value: string };

/** A value sealed by this cipher in an older format (`backend` and base64 `data`), taken over unchanged. */
export interface SealedValue {
  backend: string;
  data: string;
}

export interface SecretStore {
  /** Where a secret set now would be kept. */
  storage(): SecretStorage;
  /** Whether anything is held or saved under `key` (synchronous, nothing is decrypted). */
  has(key: string): boolean;
  get(key: string): Promise<SecretRead>;
  /**
   * Keeps `value` in memory at once and, where the policy allows, writes it encrypted. Never rejects:
   * when encrypting fails the value stays in memory only (logged). When a newer `set` or a `delete`
   * of the same key happens meanwhile, only the newer state reaches the disk.
   */
  set(key: string, value: string): Promise<void>;
  delete(key: string): void;
  /** Records the user's choice; moves every secret held this run to disk or off it accordingly. */
  setAllowPlaintext(allow: boolean): Promise<void>;
  /** Writes a value sealed in an older format under `key` (a migration); read like any other record. */
  adopt(key: string, sealed: SealedValue): void;
  /** The one notice about secret storage: due while secrets are kept in memory only. */
  notice(): Notice | null;
}

export interface SecretStoreDeps {
  cipher: SecretCipher;
  store: KeyValueStore;
  logger: Logger;
}

const RecordSchema = z.object({ v: z.literal(1), backend: z.string(), data: z.string().min(1) });

export function createSecretStore({ cipher, store, logger }: SecretStoreDeps): SecretStore {
  /** The plaintext of every secret set or read this run: what `setAllowPlaintext` moves, and what memory-only storage is. */
  const held = new Map<string, string>();
  /** Bumped on every set and delete of a key: a write that finishes after a newer change is dropped. */
  const versions = new Map<string, number>();
  const bump = (key: string) => {
    const version = (versions.get(key) ?? 0) + 1;
    versions.set(key, version);
    return version;
  };

  const storage = (): SecretStorage => {
    if (cipher.backend === 'os-keychain' || cipher.backend === 'aes-256-gcm') return 'encrypted';
    if (cipher.backend === 'basic_text' && store.get(ALLOW_PLAINTEXT_KEY) === true) return 'plaintext-opt-in';
    return 'memory-only';
  };

  const discard = (key: string, why: string): SecretRead => {
    store.delete(key);
    logger.warn('secrets: discarded a saved secret that could not be read', { key, why });
    return { status: 'unreadable' };
  };

  const persist = async (key: string, value: string, version: number) => {
    if (storage() === 'memory-only') {
      // Nothing older may stay on disk either (e.g. from a permission since withdrawn).
      store.delete(key);
      return;
    }
    try {
      const data = await cipher.encrypt(value);
      if (versions.get(key) !== version || storage() === 'memory-only') return;
      store.set(key, { v: 1, backend: cipher.backend, data });
    } catch (error) {
      logger.error('secrets: could not save a secret; it is kept in memory only', { key, error: errorName(error) });
    }
  };

  return {
    storage,
    has: (key) => held.has(key) || store.get(key) !== undefined,
    async get(key) {
      const value = held.get(key);
      if (value !== undefined) return { status: 'found', value };
      const raw = store.get(key);
      if (raw === undefined) return { status: 'missing' };
      // Left from a permission that was withdrawn, or from another cipher: it must not stay on disk.
      if (storage() === 'memory-only') return discard(key, 'saved without permission for this storage');
      const record = RecordSchema.safeParse(raw);
      if (!record.success) return discard(key, 'malformed record');
      if (record.data.backend !== cipher.backend) return discard(key, `record of another cipher backend (${record.data.backend.slice(0, 20)})`);
      const version = versions.get(key);
      let plaintext: string;
      try {
        plaintext = await cipher.decrypt(record.data.data);
      } catch {
        return discard(key, 'decryption failed');
      }
      // Set or deleted while decrypting: the newer state wins.
      if (versions.get(key) !== version) {
        const newer = held.get(key);
        return newer === undefined ? { status: 'missing' } : { status: 'found', value: newer };
      }
      held.set(key, plaintext);
      return { status: 'found', value: plaintext };
    },
    async set(key, value) {
      held.set(key, value);
      await persist(key, value, bump(key));
    },
    delete(key) {
      held.delete(key);
      bump(key);
      store.delete(key);
    },
    async setAllowPlaintext(allow) {
      const before = storage();
      store.set(ALLOW_PLAINTEXT_KEY, allow);
      const after = storage();
      if (after === 'memory-only') {
        for (const key of held.keys()) {
          bump(key); // a write still encrypting must not land after this
          store.delete(key);
        }
      } else if (after !== before) {
        await Promise.all([...held].map(([key, value]) => persist(key, value, bump(key))));
      }
    },
    adopt(key, sealed) {
      bump(key);
      held.delete(key);
      store.set(key, { v: 1, backend: sealed.backend, data: sealed.data });
    },
    notice: () => (storage() === 'memory-only' ? memoryOnlyNotice(cipher.backend) : null),
  };
}

function memoryOnlyNotice(cipherBackend: SecretCipher['backend']): Notice {
  const base = 'Your sign-in is kept only until Hubdesk quits, because this system offers no secure storage for it.';
  // With no cipher at all there is nothing weaker to opt in to, so the action is offered only for basic_text.
  if (cipherBackend === 'basic_text') {
    return {
      id: MEMORY_ONLY_NOTICE_ID,
      level: 'warning',
      message: `${base} You can allow Hubdesk to save it with weaker, obfuscated storage instead.`,
      action: 'allow-plaintext-storage',
    };
  }
  return { id: MEMORY_ONLY_NOTICE_ID, level: 'warning', message: base };
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
