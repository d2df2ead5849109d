import { describe, expect, it } from 'vitest';
import { connectStores } from '../../../../renderer/src/stores/connect-stores';
import { createHubsStore } from '../../../../renderer/src/stores/hubs-store';
import { createSessionStore } from '../../../../renderer/src/stores/session-store';
import { fakeBridge, flush, hub, ok, SIGNED_IN, sessionView } from '../fake-bridge';

describe('connectStores', () => {
  it('activates the hubs store on sign-in and clears it when the session leaves signed-in', async () => {
    const fake = fakeBridge();
    const session = createSessionStore(fake.bridge);
    const hubs = createHubsStore(fake.bridge);
    const disconnect = connectStores(session, hubs);
    expect(hubs.getState().active).toBe(false);
    fake.waiting('session.get')[0]!.resolve(ok(sessionView(SIGNED_IN)));
    await flush();
    expect(hubs.getState().active).toBe(true);
    fake.waiting('hubs.list')[0]!.resolve(ok([hub('h1', 'Home')]));
    await flush();
    expect(hubs.getState().list.status).toBe('loaded');

    fake.emitSession(sessionView({ status: 'signed-out', reason: 'Your sign-in expired.' }));
    expect(hubs.getState()).toMatchObject({ active: false, list: { status: 'idle' } });

    // Other session changes while signed in (e.g. a dismissed notice) do not reload the hubs.
    fake.emitSession(sessionView(SIGNED_IN));
    const lists = fake.argsOf('hubs.list').length;
    fake.emitSession(sessionView(SIGNED_IN, { notices: [], tokenStorage: 'memory-only' }));
    expect(fake.argsOf('hubs.list').length).toBe(lists);

    disconnect();
    fake.emitSession(sessionView({ status: 'signed-out' }));
    expect(hubs.getState().active).toBe(true);
  });

  it('activates at once when the session is already signed in', async () => {
    const fake = fakeBridge();
    const session = createSessionStore(fake.bridge);
    fake.waiting('session.get')[0]!.resolve(ok(sessionView(SIGNED_IN)));
    await flush();
    const hubs = createHubsStore(fake.bridge);
    connectStores(session, hubs);
    expect(hubs.getState().list.status).toBe('loading');
  });
});
