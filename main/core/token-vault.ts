/**
 * Holds the cloud tokens: always in memory, and on disk only when the cipher really encrypts.
 * Electron's `basic_text` backend uses a hard-coded key (obfuscation, not encryption), so with it the
 * tokens stay in memory unless the user opts in; with no cipher at all they never touch the disk.
 * Records are keyed by cloud and client, so tokens of one cloud are never sent to another.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SessionView } from '../../common/ipc-contract';
import { type TokenObject, TokenObjectSchema } from '../../common/wire';
import type { BackendConfig, KeyValueStore, Logger, SecretCipher } from './ports';

export type TokenStorage = SessionView['tokenStorage'];

/** `unreadable`: a record existed but could not be used; it has been deleted. */
export type LoadResult = 'empty' | 'loaded' | 'unreadable';

export interface TokenVault {
  /** Identifies the cloud + client pair; also used for other per-backend records (the cached user). */
  readonly backendKey: string;
  /** Whether a token record is on disk (cheap, synchronous: decides whether start-up shows "restoring"). */
  hasRecord(): boolean;
  load(): Promise<LoadResult>;
  current(): TokenObject | null;
  /** Keeps the whole token object (refresh tokens rotate) in memory and, where allowed, on disk. */
  save(tokens: TokenObject): Promise<void>;
  clear(): void;
  storage(): TokenStorage;
  setAllowPlaintext(allow: boolean): Promise<void>;
}

export const ALLOW_PLAINTEXT_KEY = 'vault:allowPlaintext';

const RecordSchema = z.object({ v: z.literal(1), backend: z.string(), data: z.string().min(1) });

type BackendIdentity = Pick<BackendConfig, 'authUrl' | 'clientId' | 'embedded'>;

/**
 * The embedded demo cloud gets a new loopback port on every start, so its records share one key: a
 * stale demo sign-in is then found, refused by the new cloud and removed, instead of lingering on disk.
 */
export function backendKeyOf(backend: BackendIdentity): string {
  const identity = backend.embedded ? 'embedded-demo' : `${backend.authUrl}\n${backend.clientId}`;
  return createHash('sha256').update(identity).digest('hex').slice(0, 16);
}

export function tokenRecordKey(backend: BackendIdentity): string {
  return `tokens:${backendKeyOf(backend)}`;
}

export interface TokenVaultDeps {
  backend: BackendConfig;
  cipher: SecretCipher;
  store: KeyValueStore;
  logger: Logger;
}

export function createTokenVault({ backend, cipher, store, logger }: TokenVaultDeps): TokenVault {
  const recordKey = tokenRecordKey(backend);
  let tokens: TokenObject | null = null;

  const storage = (): TokenStorage => {
    if (cipher.backend === 'os-keychain' || cipher.backend === 'aes-256-gcm') return 'encrypted';
    if (cipher.backend === 'basic_text' && store.get(ALLOW_PLAINTEXT_KEY) === true) return 'plaintext-opt-in';
    return 'memory-only';
  };

  const discard = (why: string) => {
    store.delete(recordKey);
    logger.warn('vault: discarded a saved sign-in that could not be read', { why });
  };

  const persist = async (value: TokenObject) => {
    if (storage() === 'memory-only') return;
    try {
      const data = await cipher.encrypt(JSON.stringify(value));
      // A newer save or a sign-out may have happened while encrypting: only the latest tokens are written.
      if (tokens !== value) return;
      store.set(recordKey, { v: 1, backend: cipher.backend, data });
    } catch (error) {
      logger.error('vault: could not save the sign-in; it is kept in memory only', { error: errorName(error) });
    }
  };

  return {
    backendKey: backendKeyOf(backend),
    hasRecord: () => store.get(recordKey) !== undefined,
    async load() {
      const raw = store.get(recordKey);
      if (raw === undefined) return 'empty';
      if (storage() === 'memory-only') {
        // Left from an opt-in that was withdrawn or from another cipher: it must not stay on disk.
        discard('saved without permission for this storage');
        return 'unreadable';
      }
      const record = RecordSchema.safeParse(raw);
      if (!record.success) {
        discard('malformed record');
        return 'unreadable';
      }
      if (record.data.backend !== cipher.backend) {
        discard(`record of another cipher backend (${record.data.backend.slice(0, 20)})`);
        return 'unreadable';
      }
      let plaintext: string;
      try {
        plaintext = await cipher.decrypt(record.data.data);
      } catch {
        discard('decryption failed');
        return 'unreadable';
      }
      const parsed = TokenObjectSchema.safeParse(safeJson(plaintext));
      if (!parsed.success) {
        discard('decrypted record is not a token object');
        return 'unreadable';
      }
      tokens = parsed.data;
      return 'loaded';
    },
    current: () => tokens,
    async save(value) {
      tokens = value;
      await persist(value);
    },
    clear() {
      tokens = null;
      store.delete(recordKey);
    },
    storage,
    async setAllowPlaintext(allow) {
      store.set(ALLOW_PLAINTEXT_KEY, allow);
      if (storage() === 'memory-only') store.delete(recordKey);
      else if (tokens) await persist(tokens);
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
