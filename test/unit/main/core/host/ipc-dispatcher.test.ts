import { describe, expect, it, vi } from 'vitest';
import { CHANNELS, type Handlers, invokeContract } from '../../../../../common/ipc-contract';
import { createHubdeskCore } from '../../../../../main/core/host/create-hubdesk-core';
import { createDispatcher } from '../../../../../main/core/host/ipc-dispatcher';
import { fakeCipher, memoryStore, recordingLogger, TEST_BACKEND } from '../../../../support/core-fakes';

function dispatcher(signedIn: boolean) {
  const handlers = { 'hubs.list': vi.fn(async () => []), 'webhooks.list': vi.fn(async () => []) } as unknown as Handlers;
  return { handlers, dispatch: createDispatcher(handlers, recordingLogger(), { signedIn: () => signedIn }) };
}

describe('the dispatcher enforces the access the contract declares', () => {
  it('refuses a signed-in verb while nobody is signed in, before its handler runs', async () => {
    const { handlers, dispatch } = dispatcher(false);
    expect(await dispatch('hubs.list', [])).toEqual({ ok: false, error: { code: 'signed-out', message: 'You are not signed in.' } });
    expect(handlers['hubs.list']).not.toHaveBeenCalled();
  });

  it('runs a signed-in verb for a signed-in user, and an anyone verb for everybody', async () => {
    expect(await dispatcher(true).dispatch('hubs.list', [])).toEqual({ ok: true, value: [] });
    const signedOut = dispatcher(false);
    expect(await signedOut.dispatch('webhooks.list', [])).toEqual({ ok: true, value: [] });
    expect(signedOut.handlers['webhooks.list']).toHaveBeenCalledOnce();
  });

  it('checks the arguments first, whoever asks', async () => {
    expect(await dispatcher(false).dispatch('hubs.list', ['extra'])).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(await dispatcher(false).dispatch('hubs.nope', [])).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
  });

  it('every verb declares its access; every verb that reaches a hub needs a signed-in user', () => {
    for (const channel of CHANNELS) expect(['signed-in', 'anyone']).toContain(invokeContract[channel].access);
    const hubVerbs = CHANNELS.filter((channel) => channel.startsWith('hubs.') && !['hubs.open', 'hubs.allowUnencryptedRoutes'].includes(channel));
    expect(hubVerbs.length).toBeGreaterThanOrEqual(5);
    for (const channel of hubVerbs) expect(invokeContract[channel].access, channel).toBe('signed-in');
  });
});

describe('hubs.reconnect ("Try now")', () => {
  it('takes one hub id, needs a signed-in user, and runs its handler with the id', async () => {
    const reconnect = vi.fn(async () => {});
    const handlers = { 'hubs.reconnect': reconnect } as unknown as Handlers;
    const signedIn = createDispatcher(handlers, recordingLogger(), { signedIn: () => true });
    for (const args of [[], [''], [42], ['hub-1', 'extra'], ['x'.repeat(201)]]) {
      expect(await signedIn('hubs.reconnect', args), JSON.stringify(args)).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    }
    expect(reconnect).not.toHaveBeenCalled();
    expect(await createDispatcher(handlers, recordingLogger(), { signedIn: () => false })('hubs.reconnect', ['hub-1'])).toMatchObject({
      ok: false,
      error: { code: 'signed-out' },
    });
    expect(reconnect).not.toHaveBeenCalled();
    expect(await signedIn('hubs.reconnect', ['hub-1'])).toEqual({ ok: true });
    expect(reconnect).toHaveBeenCalledExactlyOnceWith('hub-1');
  });
});

describe('the core behind its dispatcher, signed out', () => {
  it('refuses hub verbs with signed-out, lets the open hub be closed, and opening a hub refused', async () => {
    const core = await createHubdeskCore({
      backend: TEST_BACKEND,
      cipher: fakeCipher(),
      store: memoryStore(),
      openExternal: async () => {},
      logger: recordingLogger(),
    });
    try {
      expect(await core.dispatch('hubs.list', [])).toMatchObject({ ok: false, error: { code: 'signed-out' } });
      expect(await core.dispatch('hubs.open', [null])).toEqual({ ok: true });
      expect(await core.dispatch('hubs.open', ['hub-1'])).toMatchObject({ ok: false, error: { code: 'signed-out' } });
      expect(await core.dispatch('session.get', [])).toMatchObject({ ok: true, value: { auth: { status: 'signed-out' } } });
    } finally {
      await core.dispose();
    }
  });
});
