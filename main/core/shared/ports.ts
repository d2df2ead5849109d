/**
 * Ports: everything platform-specific that main/core needs, as interfaces. The Electron host and the
 * browser host each provide adapters; unit tests provide fakes. Nothing here may import `electron`.
 */

/** Encrypts secrets at rest. Electron: safeStorage; browser host: AES-256-GCM with a 0600 key file. */
export interface SecretCipher {
  /**
   * Which backend protects the data. `basic_text` is Electron's Linux fallback with a hard-coded
   * key: it is obfuscation, not encryption, so the vault keeps tokens in memory unless the user opts in.
   */
  readonly backend: 'os-keychain' | 'aes-256-gcm' | 'basic_text' | 'unavailable';
  encrypt(plaintext: string): Promise<string>; // returns base64
  decrypt(ciphertext: string): Promise<string>; // throws when the data cannot be decrypted
}

/** A small persistent key-value store (electron-store, or a JSON file in the browser host). */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** Opens a URL in the user's system browser (RFC 8252: never an embedded user-agent). */
export type OpenExternal = (url: string) => Promise<void>;

export interface Clock {
  now(): number; // milliseconds since the epoch
}

/** The timer port beside the clock (common/schedule.ts, shared with the renderer). */
export { realSchedule, type Schedule } from '../../../common/schedule';

export type { Logger } from '../../../common/logger';

/** Where the app's cloud is and who the app is to it. */
export interface BackendConfig {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** The host's redirect URI: the private-use scheme (Electron) or the loopback one (browser host). */
  redirectUri: string;
  /** True when the app started the reference stack in-process because nothing was configured. */
  embedded: boolean;
  /** The webhook forwarder's base URL (its listener channel is `{webhookUrl}/listen`); null: none configured. */
  webhookUrl: string | null;
  /** The developer portal where webhooks are created (shown when there is none yet); absent or null: none known. */
  portalUrl?: string | null;
  /**
   * The embedded demo's ready webhook, when its forwarder is the one used (`webhooks.useDemo`). Secrets: kept
   * in main like every webhook secret, never sent to the window.
   */
  demoWebhook?: { id: string; secret: string; tapCredential: string; keyPath: string };
  /** A CA (PEM) trusted for hub addresses besides the system ones, e.g. the one that issued a hub's LAN certificate. */
  trustedCaPem?: string;
}

/**
 * One DNS-SD instance of `_hub._tcp` as heard on the LAN. Anyone on the LAN can send one, so every
 * field but the name is untyped here: the core validates them (lan-directory.ts).
 */
export interface MdnsService {
  /** The instance's full name, unique on the LAN: what a later "down" refers to. */
  name: string;
  /** Decoded TXT key/values; the hub's id is `id`, its HTTPS port (optional) `secure`. */
  txt: unknown;
  addresses: unknown;
  port: unknown;
}

/** Browses the LAN for hubs (bonjour-service in both hosts; a fake in unit tests). */
export interface MdnsBrowser {
  /** Starts browsing: `onUp` for each new or changed instance, `onDown` when one goes away. Returns `stop`. */
  start(onUp: (service: MdnsService) => void, onDown: (service: MdnsService) => void): () => void;
}

export const systemClock: Clock = { now: () => Date.now() };
