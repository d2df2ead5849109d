import type { Envelope } from '../../../../common/app-error';
import { describe, expect, it, vi } from 'vitest';
import { createSessionStore } from '../../../../renderer/src/stores/session-store';
import { fakeBridge, flush, ok, SIGNED_IN, sessionView } from '../fake-bridge';

const SIGNED_OUT = sessionView({ status: 'signed-out' });

async function loadedStore() {
  const fake = fakeBridge();
  const store = createSessionStore(fake.bridge);
  fake.waiting('session.get')[0]!.resolve(ok(SIGNED_OUT));
  await flush();
  return { fake, store };
}

describe('session store', () => {
  it('loads the session with session.get', async () => {
    const fake = fakeBridge();
    const store = createSessionStore(fake.bridge);
    expect(store.getState().session).toBeNull();
    expect(fake.waiting('session.get')).toHaveLength(1);

    fake.waiting('session.get')[0]!.resolve(ok(SIGNED_OUT));
    await flush();
    expect(store.getState().session).toEqual(SIGNED_OUT);
    expect(store.getState().loadError).toBeNull();
  });

  it('keeps the load error and recovers on a second load', async () => {
    const fake = fakeBridge();
    const store = createSessionStore(fake.bridge);
    fake.waiting('session.get')[0]!.resolve({ ok: false, error: { code: 'internal', message: 'boom' } });
    await flush();
    expect(store.getState().loadError).toEqual({ code: 'internal', message: 'boom' });

    const again = store.getState().load();
    fake.waiting('session.get')[0]!.resolve(ok(SIGNED_OUT));
    await again;
    expect(store.getState().loadError).toBeNull();
    expect(store.getState().session?.auth.status).toBe('signed-out');
  });

  it('turns a rejected or malformed answer into an error instead of throwing', async () => {
    const fake = fakeBridge();
    const store = createSessionStore(fake.bridge);
    fake.waiting('session.get')[0]!.reject(new Error('socket closed'));
    await flush();
    expect(store.getState().loadError?.code).toBe('internal');

    const again = store.getState().load();
    fake.waiting('session.get')[0]!.resolve({ nonsense: true } as never);
    await again;
    expect(store.getState().loadError?.code).toBe('internal');
    expect(store.getState().session).toBeNull();
  });

  it('follows session.changed; malformed events are dropped by the bridge before they reach it', async () => {
    const { fake, store } = await loadedStore();
    fake.emitSession(sessionView(SIGNED_IN));
    expect(store.getState().session?.auth).toEqual(SIGNED_IN);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    fake.emitSession({ auth: 'garbage' });
    fake.emitSession(null);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
    expect(store.getState().session?.auth).toEqual(SIGNED_IN);
  });

  it('stops following events after dispose', async () => {
    const { fake, store } = await loadedStore();
    expect(fake.listenerCount()).toBe(1);
    store.dispose();
    expect(fake.listenerCount()).toBe(0);
    fake.emitSession(sessionView(SIGNED_IN));
    expect(store.getState().session?.auth.status).toBe('signed-out');
  });

  it.each([
    ['signIn', 'auth.signIn', []],
    ['reopenBrowser', 'auth.reopenBrowser', []],
    ['cancel', 'auth.cancel', []],
    ['signOut', 'auth.signOut', []],
    ['allowPlaintextStorage', 'vault.allowPlaintextStorage', [true]],
  ] as const)('%s calls %s', async (action, channel, args) => {
    const { fake, store } = await loadedStore();
    const done = store.getState()[action]();
    expect(store.getState().pending).toBe(action);
    const [call] = fake.waiting(channel);
    expect(call?.args).toEqual(args);
    call!.resolve(ok(undefined));
    await done;
    expect(store.getState().pending).toBeNull();
    expect(store.getState().actionError).toBeNull();
  });

  it('dismissNotice passes the notice id to notices.dismiss', async () => {
    const { fake, store } = await loadedStore();
    const done = store.getState().dismissNotice('vault-memory-only');
    fake.waiting('notices.dismiss')[0]!.resolve(ok(undefined));
    await done;
    expect(fake.calls.find((c) => c.channel === 'notices.dismiss')?.args).toEqual(['vault-memory-only']);
  });

  it('keeps the last action error and clears it when the next action starts', async () => {
    const { fake, store } = await loadedStore();
    const failing = store.getState().signIn();
    fake.waiting('auth.signIn')[0]!.resolve({ ok: false, error: { code: 'internal', message: 'Hubdesk could not open your browser to sign in.' } });
    await failing;
    expect(store.getState().actionError).toEqual({ code: 'internal', message: 'Hubdesk could not open your browser to sign in.' });
    expect(store.getState().pending).toBeNull();

    const next = store.getState().signIn();
    expect(store.getState().actionError).toBeNull();
    fake.waiting('auth.signIn')[0]!.resolve(ok(undefined));
    await next;
    expect(store.getState().actionError).toBeNull();
  });

  it('accepts a void result that crossed JSON without a value', async () => {
    const { fake, store } = await loadedStore();
    const done = store.getState().signIn();
    fake.waiting('auth.signIn')[0]!.resolve(JSON.parse(JSON.stringify({ ok: true, value: undefined })) as Envelope<unknown>);
    await done;
    expect(store.getState().actionError).toBeNull();
  });

  it('does not change the session on its own after an action: main reports the change', async () => {
    const { fake, store } = await loadedStore();
    const done = store.getState().signIn();
    fake.waiting('auth.signIn')[0]!.resolve(ok(undefined));
    await done;
    expect(store.getState().session?.auth.status).toBe('signed-out');
    fake.emitSession(sessionView({ status: 'signing-in', authorizationOrigin: 'https://cloud.example.test' }));
    expect(store.getState().session?.auth.status).toBe('signing-in');
  });
});
