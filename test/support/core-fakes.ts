/**
 * Fakes of the core's ports for unit tests of one module: an in-memory store, a reversible cipher
 * (so tests can see what would be on disk), a logger that records, and a fixed backend.
 */
import type { Handlers } from '../../common/ipc-contract';
import type { HubdeskCore } from '../../main/core/host/hubdesk-core';
import { createDispatcher } from '../../main/core/host/ipc-dispatcher';
import type { HubRecord, TokenObject } from '../../common/wire';
import type { HubClient, PingOutcome } from '../../main/core/hubs/hub-client';
import { createHubSessions, type HubSessions } from '../../main/core/hubs/hub-sessions';
import type { BackendConfig, KeyValueStore, Logger, SecretCipher } from '../../main/core/shared/ports';
import { createRoutePins } from '../../main/core/hubs/route-pins';
import { createParallelPingSelector } from '../../main/core/hubs/route-selection';

export const TEST_BACKEND: BackendConfig = {
  authUrl: 'https://cloud.example.test',
  clientId: 'hubdesk-test',
  clientSecret: 'test-secret',
  redirectUri: 'io.hubdesk.app:/oauth/callback',
  embedded: false,
  webhookUrl: null,
};

export function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map(Object.entries(structuredClone(initial)));
  return {
    data,
    get: (key) => structuredClone(data.get(key)),
    set: (key, value) => void data.set(key, structuredClone(value)),
    delete: (key) => void data.delete(key),
  };
}

/** Reverses and base64-encodes: reversible like a real cipher, and the plaintext does not appear in the output. */
export function fakeCipher(backend: SecretCipher['backend'] = 'aes-256-gcm'): SecretCipher & { encrypted: number } {
  const cipher = {
    backend,
    encrypted: 0,
    async encrypt(plaintext: string) {
      cipher.encrypted++;
      return Buffer.from([...plaintext].reverse().join(''), 'utf8').toString('base64');
    },
    async decrypt(ciphertext: string) {
      if (!/^[A-Za-z0-9+/=]+$/.test(ciphertext)) throw new Error('bad ciphertext');
      return [...Buffer.from(ciphertext, 'base64').toString('utf8')].reverse().join('');
    },
  };
  return cipher;
}

export interface RecordingLogger extends Logger {
  lines: { level: 'info' | 'warn' | 'error'; message: string; fields?: Record<string, unknown> }[];
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = [];
  return {
    lines,
    info: (message, fields) => void lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => void lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => void lines.push({ level: 'error', message, fields }),
  };
}

export function tokens(n: number): TokenObject {
  return { token_type: 'bearer', grant_type: 'authorization_code', access_token: `access-${n}`, refresh_token: `refresh-${n}`, expires_in: '3600' };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * A hub client whose calls are `overrides`; the rest answer like an older hub without them (404, so
 * session/me means full access, and logout leaves the session to expire). Route selection is given its
 * own fake ping in these tests, so the client's ping is not faked unless asked.
 */
export function fakeHubClient(overrides: Partial<HubClient> & Pick<HubClient, 'login' | 'devices'>): HubClient {
  const missing = async () => ({ kind: 'status', status: 404, error: null }) as const;
  return {
    ping: async () => ({ kind: 'failed', detail: 'not faked' }),
    logout: missing,
    setCapability: missing,
    flows: missing,
    triggerFlow: missing,
    sessionInfo: missing,
    insightsLogs: missing,
    insightsEntries: missing,
    ...overrides,
  };
}

/** A ping for route selection in which the hub is at every address (and proved it). */
export const hubEverywhere = async (): Promise<PingOutcome> => ({ kind: 'hub' });

/** Sessions on the user's one hub, reachable at every address, for tests of the calls made through them. */
export function sessionsOnOneHub(hubClient: HubClient, hub: HubRecord): HubSessions {
  return createHubSessions({
    cloud: { getUser: async () => ({ _id: 'u', email: '', firstname: '', lastname: '', hubs: [hub] }), delegationToken: async () => 'delegation' },
    hubClient,
    routes: createParallelPingSelector(hubEverywhere),
    pins: createRoutePins(memoryStore()),
    clock: { now: () => 0 },
    logger: recordingLogger(),
  });
}

/**
 * A core for the browser host's server tests: the given handlers behind the real dispatcher (signed in),
 * no open hub, and whatever `overrides` replace (events, the OAuth callback).
 */
export function fakeHubdeskCore(handlers: Partial<Record<keyof Handlers, unknown>>, overrides: Partial<HubdeskCore> = {}): HubdeskCore {
  const all = handlers as unknown as Handlers;
  return {
    handlers: all,
    dispatch: createDispatcher(all, recordingLogger(), { signedIn: () => true }),
    onEvent: () => () => {},
    handleOAuthCallback: async () => 'ignored',
    wake: () => {},
    openHubSummary: () => ({ hubId: null, hubName: null, live: { kind: 'closed' }, favourites: [], flows: [] }),
    onOpenHubSummary: () => () => {},
    dispose: async () => {},
    ...overrides,
  };
}
