import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../../../common/app-error';
import { createCloudClient, EMBEDDED_CLOUD_RESTARTED_REASON, SESSION_REVOKED_REASON } from '../../../../../main/core/sign-in/cloud-client';
import { createTokenEndpoint } from '../../../../../main/core/sign-in/token-endpoint';
import { createSecretStore } from '../../../../../main/core/shared/secret-store';
import { createTokenVault, tokenRecordKey } from '../../../../../main/core/sign-in/token-vault';
import { fakeCipher, jsonResponse, memoryStore, recordingLogger, TEST_BACKEND, tokens } from '../../../../support/core-fakes';

const USER = { _id: 'u1', email: 'ada@example.test', firstname: 'Ada', lastname: 'Lovelace', hubs: [] };

/**
 * A fake cloud for one module's unit test: /user/me accepts only the current access token, and the
 * token endpoint rotates (access-n, refresh-n) → (access-n+1, refresh-n+1), answering after `gate`.
 */
function fakeCloud(options: { refreshAnswer?: 'rotate' | 'invalid_grant' | 'network' } = {}) {
  let generation = 1;
  let refreshes = 0;
  const refreshBodies: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const auth = new Headers(init?.headers).get('authorization');
    if (url.pathname === '/oauth2/token') {
      refreshes++;
      refreshBodies.push(String(init?.body));
      await gate;
      if (options.refreshAnswer === 'network') throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      if (options.refreshAnswer === 'invalid_grant') return jsonResponse(400, { error: 'invalid_grant' });
      generation++;
      return jsonResponse(200, tokens(generation));
    }
    if (auth !== `Bearer access-${generation}`) return jsonResponse(401, { error: 'invalid_token' });
    if (url.pathname === '/user/me') return jsonResponse(200, USER);
    if (url.pathname === '/delegation/token') return jsonResponse(200, 'delegation-jwt');
    return jsonResponse(404, { error: 'not_found' });
  });
  return { fetch, release, refreshes: () => refreshes, refreshBodies, expire: () => generation++ };
}

/** A cloud client on a signed-in vault; given a profile (`restart`), a fresh vault on it, not yet loaded. */
async function setup(
  cloud: ReturnType<typeof fakeCloud>,
  backend = TEST_BACKEND,
  restart?: { store: ReturnType<typeof memoryStore>; cipher: ReturnType<typeof fakeCipher> },
) {
  const store = restart?.store ?? memoryStore();
  const cipher = restart?.cipher ?? fakeCipher();
  const logger = recordingLogger();
  const vault = createTokenVault({ backend: TEST_BACKEND, secrets: createSecretStore({ cipher, store, logger }), logger });
  if (!restart) await vault.save(tokens(1));
  const lifetime = new AbortController().signal;
  const onSessionEnded = vi.fn();
  const client = createCloudClient({
    backend,
    fetch: cloud.fetch as typeof globalThis.fetch,
    vault,
    tokenEndpoint: createTokenEndpoint(TEST_BACKEND, cloud.fetch as typeof globalThis.fetch, lifetime),
    logger,
    lifetime,
    clock: { now: () => Date.now() },
    onSessionEnded,
  });
  return { client, vault, store, cipher, onSessionEnded, logger };
}

describe('cloud client', () => {
  it('ten concurrent 401s lead to exactly one refresh, then every call succeeds', async () => {
    const cloud = fakeCloud();
    const { client } = await setup(cloud);
    cloud.expire(); // the cloud now refuses access-1
    const calls = Array.from({ length: 10 }, (_, i) => (i % 2 ? client.getUser() : client.delegationToken('hub-1')));
    await vi.waitFor(() => expect(cloud.refreshes()).toBe(1));
    cloud.release();
    const results = await Promise.all(calls);
    expect(cloud.refreshes()).toBe(1);
    expect(results.filter((r) => r === 'delegation-jwt')).toHaveLength(5);
    expect(results.filter((r) => typeof r === 'object')).toHaveLength(5);
  });

  it('stores the whole rotated token object after a refresh, encrypted', async () => {
    const cloud = fakeCloud();
    const { client, vault, store, cipher } = await setup(cloud);
    cloud.expire();
    cloud.release();
    await client.getUser();
    expect(cloud.refreshBodies[0]).toContain('grant_type=refresh_token');
    expect(cloud.refreshBodies[0]).toContain('refresh_token=refresh-1');
    expect(vault.current()).toEqual(tokens(3)); // expire() moved to 2, the refresh to 3
    const record = store.data.get(tokenRecordKey(TEST_BACKEND)) as { data: string };
    expect(record.data).not.toContain('refresh-3');
    expect(JSON.parse(await cipher.decrypt(record.data))).toEqual(tokens(3));
  });

  it('a refused refresh ends the session once, with a clear reason', async () => {
    const cloud = fakeCloud({ refreshAnswer: 'invalid_grant' });
    const { client, onSessionEnded } = await setup(cloud);
    cloud.expire();
    cloud.release();
    const results = await Promise.allSettled([client.getUser(), client.getUser(), client.delegationToken('h')]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
      expect(((result as PromiseRejectedResult).reason as AppError).code).toBe('signed-out');
    }
    expect(cloud.refreshes()).toBe(1);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    expect(onSessionEnded.mock.calls[0]![0]).toMatch(/sign in again/i);
  });

  it('says the sign-in expired or was revoked for a configured cloud, but that the embedded demo cloud restarted for it', async () => {
    for (const [embedded, reason] of [
      [false, SESSION_REVOKED_REASON],
      [true, EMBEDDED_CLOUD_RESTARTED_REASON],
    ] as const) {
      const cloud = fakeCloud({ refreshAnswer: 'invalid_grant' });
      const { client, onSessionEnded } = await setup(cloud, { ...TEST_BACKEND, embedded });
      cloud.expire();
      cloud.release();
      await expect(client.getUser()).rejects.toMatchObject({ code: 'signed-out', message: reason });
      expect(onSessionEnded).toHaveBeenCalledWith(reason);
    }
    expect(EMBEDDED_CLOUD_RESTARTED_REASON).not.toMatch(/expired/);
  });

  it('a refresh that gets no answer keeps the sign-in', async () => {
    const cloud = fakeCloud({ refreshAnswer: 'network' });
    const { client, onSessionEnded, vault } = await setup(cloud);
    cloud.expire();
    cloud.release();
    await expect(client.getUser()).rejects.toMatchObject({ code: 'cloud-unreachable' });
    expect(onSessionEnded).not.toHaveBeenCalled();
    expect(vault.current()).toEqual(tokens(1));
  });

  it('a call made while the saved sign-in is being restored waits for it and uses the restored tokens', async () => {
    const cloud = fakeCloud();
    const { store, cipher } = await setup(cloud);
    // A restart on the same profile: a new vault that has the saved record but has not read it yet.
    const { client, vault } = await setup(cloud, TEST_BACKEND, { store, cipher });
    const restoring = vault.load();
    await expect(client.getUser()).resolves.toMatchObject({ email: USER.email });
    await expect(restoring).resolves.toBe('loaded');
  });

  it('never logs a token', async () => {
    const cloud = fakeCloud();
    const { client, logger } = await setup(cloud);
    cloud.expire();
    cloud.release();
    await client.getUser();
    expect(JSON.stringify(logger.lines)).not.toMatch(/access-\d|refresh-\d/);
  });
});
