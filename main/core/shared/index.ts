/**
 * The public face of main/core/shared/ (docs/architecture.md, "main/core"): what the other sections and the
 * hosts use. Other folders import this section only through here; inside it, modules import each other.
 */
export { AES_KEY_BYTES, SEAL_OVERHEAD_BYTES, openBytes, sealBytes } from './aes-gcm';
export { createBackoff } from './backoff';
export type { Backoff } from './backoff';
export { createEventEmitter } from './event-emitter';
export { startHeartbeat } from './heartbeat';
export type { Heartbeat } from './heartbeat';
export { joinUrl, requestJson } from './http';
export type { FetchFn, HttpOutcome, HttpRequest } from './http';
export { plainWebSocket, realtimeUrl, wsLiveSocket } from './live-socket';
export type { LiveSocket, LiveSocketEnd, OpenLiveSocket, OpenWebSocket } from './live-socket';
export { perKeyQueue } from './per-key-queue';
export { realSchedule, systemClock } from './ports';
export type { BackendConfig, Clock, KeyValueStore, Logger, MdnsBrowser, MdnsService, OpenExternal, Schedule, SecretCipher } from './ports';
export { sendRawRequest } from './raw-request';
export type { RawAnswer, RawRequest } from './raw-request';
export { ALLOW_PLAINTEXT_KEY, MEMORY_ONLY_NOTICE_ID, createSecretStore } from './secret-store';
export type { SecretStorage, SecretStore } from './secret-store';
