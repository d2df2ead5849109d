/**
 * Holds the cloud tokens: always in memory, and on disk as the secret store's policy allows
 * (secret-store.ts: encrypted with a cipher that really encrypts; with Electron's `basic_text` only
 * when the user opted in; never without a cipher). Records are keyed by cloud and client, so tokens
 * of one cloud are never sent to another.
 */
import { createHash } from 'node:crypto';
import { parseJsonMessage } from '../../../common/json-message';
import { type TokenObject, TokenObjectSchema } from '../../../common/wire';
import type { BackendConfig, Logger } from '../shared';
import type { SecretStorage, SecretStore } from '../shared';

export { ALLOW_PLAINTEXT_KEY } from '../shared';

export type TokenStorage = SecretStorage;

/** `unreadable`: a record existed but could not be used; it has been deleted. */
export type LoadResult = 'empty' | 'loaded' | 'unreadable';

export interface TokenVault {
  /** Identifies the cloud + client pair; also used for other per-backend records (the cached user). */
  readonly backendKey: string;
  /** Whether a token record is saved (cheap, synchronous: decides whether start-up shows "restoring"). */
  hasRecord(): boolean;
  load(): Promise<LoadResult>;
  /**
   * Resolves once a `load` in progress has ended (at once when none is): the core accepts signed-in
   * calls while a saved sign-in is being restored, and their tokens are those the load reads.
   */
  settled(): Promise<void>;
  current(): TokenObject | null;
  /** Keeps the whole token object (refresh tokens rotate) in memory and, where allowed, on disk. */
  save(tokens: TokenObject): Promise<void>;
  clear(): void;
  /** The secret store's storage, which the tokens share with every other secret. */
  storage(): TokenStorage;
  /** The user's choice about `basic_text` storage: it applies to every secret, not only the tokens. */
  setAllowPlaintext(allow: boolean): Promise<void>;
}

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
  secrets: SecretStore;
  logger: Logger;
}

export function createTokenVault({ backend, secrets, logger }: TokenVaultDeps): TokenVault {
  const recordKey = tokenRecordKey(backend);
  let tokens: TokenObject | null = null;
  let loading: Promise<unknown> = Promise.resolve();

  const load = async (): Promise<LoadResult> => {
    const read = await secrets.get(recordKey);
    if (read.status === 'missing') return 'empty';
    if (read.status === 'unreadable') return 'unreadable'; // the secret store deleted it and said why
    const parsed = parseJsonMessage(TokenObjectSchema, read.value);
    if (!parsed) {
      secrets.delete(recordKey);
      logger.warn('vault: discarded a saved sign-in that could not be read', { why: 'decrypted record is not a token object' });
      return 'unreadable';
    }
    tokens = parsed;
    return 'loaded';
  };

  return {
    backendKey: backendKeyOf(backend),
    hasRecord: () => secrets.has(recordKey),
    load() {
      const loaded = load();
      loading = loaded.catch(() => {});
      return loaded;
    },
    settled: () => loading.then(() => {}),
    current: () => tokens,
    async save(value) {
      tokens = value;
      // A newer save or a sign-out while encrypting wins: the secret store writes only the latest state.
      await secrets.set(recordKey, JSON.stringify(value));
    },
    clear() {
      tokens = null;
      secrets.delete(recordKey);
    },
    storage: () => secrets.storage(),
    setAllowPlaintext: (allow) => secrets.setAllowPlaintext(allow),
  };
}
