/**
 * The app core against the real reference cloud and hubs over real sockets: sign-in through the
 * consent pages, hubs and devices, expiry of the access token and of hub sessions, restart.
 * The platform ports are in-memory (store, cipher); the peers are real.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../common/app-error';
import type { SessionView } from '../../../common/ipc-contract';
import { createHubdeskCore } from '../../../main/core/host/create-hubdesk-core';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import { type RunningStack, startStack } from '../../../services/stack';
import { consent } from '../../support/consent-driver';
import { fakeCipher, memoryStore, recordingLogger } from '../../support/core-fakes';
import { stackBackend } from '../../support/stack-backend';
import { readDevices } from '../../support/open-hub';

let stack: RunningStack;
let clock = Date.now();
const calls: string[] = [];

beforeAll(async () => {
  stack = await startStack({ now: () => clock, remoteLatencyMs: 0 });
});
afterAll(() => stack?.close());

/** A fetch that records which endpoint each call went to, and nothing else. */
const countingFetch: typeof fetch = (input, init) => {
  calls.push(new URL(String(input)).pathname);
  return fetch(input, init);
};
const count = (path: string) => calls.filter((p) => p === path).length;

async function newCore(store = memoryStore()) {
  const opened: string[] = [];
  const core = await createHubdeskCore({
    backend: stackBackend(stack.info),
    cipher: fakeCipher(),
    store,
    openExternal: async (url) => void opened.push(url),
    logger: recordingLogger(),
    clock: { now: () => clock },
    fetch: countingFetch,
  });
  return { core, store, opened };
}

async function signIn(core: HubdeskCore, opened: string[], decision: 'Allow' | 'Deny' = 'Allow') {
  await core.handlers['auth.signIn']();
  const redirect = await consent(opened.at(-1) as string, stack.info.user, decision);
  expect(`${redirect.protocol}${redirect.pathname}`).toBe('io.hubdesk.app:/oauth/callback');
  return core.handleOAuthCallback(Object.fromEntries(redirect.searchParams));
}

async function settled(core: HubdeskCore): Promise<SessionView> {
  for (;;) {
    const view = await core.handlers['session.get']();
    if (view.auth.status !== 'restoring') return view;
    await new Promise<void>((resolve) => {
      const off = core.onEvent('session.changed', () => (off(), resolve()));
    });
  }
}

describe('app core against the reference services', () => {
  it('signs in through the consent page and lists the devices of both hubs', async () => {
    const { core, opened } = await newCore();
    expect((await core.handlers['session.get']()).auth.status).toBe('signed-out');
    expect(await signIn(core, opened)).toBe('accepted');
    const view = await core.handlers['session.get']();
    expect(view.auth).toMatchObject({ status: 'signed-in', user: { email: stack.info.user.email } });
    expect(JSON.stringify(view)).not.toMatch(/access_token|refresh_token/);

    const hubs = await core.handlers['hubs.list']();
    expect(hubs.map((h) => h.name).sort()).toEqual(['Holiday cabin', 'Home']);
    const home = hubs.find((h) => h.name === 'Home')!;
    const cabin = hubs.find((h) => h.name === 'Holiday cabin')!;
    expect(home).toMatchObject({ platform: 'local', routes: { 'local-secure': true, local: true, remote: true } });
    expect(cabin).toMatchObject({ platform: 'cloud', routes: { local: false, remote: true } });

    const homeDevices = await readDevices(core, home.id);
    expect(homeDevices.route).toBe('local'); // the secure route's certificate is not trusted (yet)
    expect(homeDevices.devices.length).toBeGreaterThanOrEqual(20);
    const cabinDevices = await readDevices(core, cabin.id);
    expect(cabinDevices.route).toBe('remote');
    expect(cabinDevices.devices.length).toBeGreaterThan(0);
    await core.dispose();
  });

  it('declining consent leaves the user signed out with a reason', async () => {
    const { core, opened } = await newCore();
    expect(await signIn(core, opened, 'Deny')).toBe('accepted');
    expect((await core.handlers['session.get']()).auth).toMatchObject({ status: 'signed-out', reason: expect.stringMatching(/declined/) });
    await core.dispose();
  });

  it('a callback with a forged state is ignored and does not end the real sign-in', async () => {
    const { core, opened } = await newCore();
    await core.handlers['auth.signIn']();
    expect(await core.handleOAuthCallback({ code: 'forged', state: 'forged' })).toBe('ignored');
    const redirect = await consent(opened.at(-1) as string, stack.info.user, 'Allow');
    expect(await core.handleOAuthCallback(Object.fromEntries(redirect.searchParams))).toBe('accepted');
    expect((await core.handlers['session.get']()).auth.status).toBe('signed-in');
    await core.dispose();
  });

  it('an expired access token is refreshed once for many concurrent calls, and the new tokens are stored', async () => {
    const { core, opened, store } = await newCore();
    await signIn(core, opened);
    const before = JSON.stringify([...store.data]);
    clock += 3601_000; // the access token has expired
    const refreshesBefore = count('/oauth2/token');
    const lists = await Promise.all(Array.from({ length: 10 }, () => core.handlers['hubs.list']()));
    expect(lists.every((hubs) => hubs.length === 2)).toBe(true);
    expect(count('/oauth2/token') - refreshesBefore).toBe(1);
    expect(JSON.stringify([...store.data])).not.toBe(before); // the rotated token object was saved
    await core.dispose();
  });

  it('a hub session that expired is replaced once and the call retried', async () => {
    const { core, opened } = await newCore();
    await signIn(core, opened);
    const home = (await core.handlers['hubs.list']()).find((h) => h.name === 'Home')!;
    await readDevices(core, home.id);
    const loginsBefore = count('/api/manager/users/login');
    await readDevices(core, home.id);
    expect(count('/api/manager/users/login')).toBe(loginsBefore); // the session is cached
    for (const hub of stack.hubs) hub.expireSessions();
    const again = await readDevices(core, home.id);
    expect(again.devices.length).toBeGreaterThanOrEqual(20);
    expect(count('/api/manager/users/login')).toBe(loginsBefore + 1);
    await core.dispose();
  });

  it('a hub that moved is found again at the address the cloud now lists', async () => {
    const { core, opened } = await newCore();
    await signIn(core, opened);
    const home = (await core.handlers['hubs.list']()).find((h) => h.name === 'Home')!;
    await readDevices(core, home.id);
    const userReadsBefore = count('/user/me');
    await stack.relocateHub(home.id);
    const moved = await readDevices(core, home.id);
    expect(moved.devices.length).toBeGreaterThanOrEqual(20);
    expect(count('/user/me')).toBeGreaterThan(userReadsBefore); // the addresses were re-read
    await core.dispose();
  });

  it('a hub that answers at none of its addresses is reported unreachable, and found again once it is back', async () => {
    const { core, opened } = await newCore();
    await signIn(core, opened);
    const cabin = (await core.handlers['hubs.list']()).find((h) => h.name === 'Holiday cabin')!;
    await readDevices(core, cabin.id);
    const listed = stack.info.hubs.find((h) => h.id === cabin.id)!;
    const { id: _id, name: _name, ...addresses } = listed;
    await stack.relocateHub(cabin.id); // the old address stops answering...
    const current = stack.info.hubs.find((h) => h.id === cabin.id)!;
    stack.cloud.setHubAddresses(cabin.id, addresses); // ...and the cloud still lists only that one
    await expect(readDevices(core, cabin.id)).rejects.toMatchObject({ code: 'hub-unreachable' });
    stack.cloud.setHubAddresses(cabin.id, { localUrl: current.localUrl, localUrlSecure: current.localUrlSecure, remoteUrl: current.remoteUrl });
    expect((await readDevices(core, cabin.id)).devices.length).toBeGreaterThan(0);
    await core.dispose();
  });

  it('a restarted core is still signed in from the encrypted record, without the browser', async () => {
    const first = await newCore();
    await signIn(first.core, first.opened);
    await first.core.dispose();
    const second = await newCore(first.store);
    expect((await second.core.handlers['session.get']()).auth.status).toBe('restoring');
    expect((await settled(second.core)).auth).toMatchObject({ status: 'signed-in', user: { email: stack.info.user.email } });
    expect(second.opened).toHaveLength(0);
    expect((await second.core.handlers['hubs.list']()).length).toBe(2);
    await second.core.handlers['auth.signOut']();
    expect([...second.store.data.keys()].some((k) => k.startsWith('tokens:'))).toBe(false);
    await expect(second.core.handlers['hubs.list']()).rejects.toBeInstanceOf(AppError);
    await second.core.dispose();
  });
});
