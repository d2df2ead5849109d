import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../../../common/app-error';
import type { AuthView } from '../../../../../common/ipc-contract';
import type { UserRecord } from '../../../../../common/wire';
import {
  BROWSER_FAILED_REASON,
  createAuth,
  DECLINED_REASON,
  NOTHING_TO_REOPEN_REASON,
  REOPEN_FAILED_REASON,
  SIGN_IN_EXPIRED_REASON,
  UNREADABLE_REASON,
} from '../../../../../main/core/sign-in/auth';
import type { CallbackResult } from '../../../../../main/core/sign-in/oauth-flow';
import type { LoadResult, TokenVault } from '../../../../../main/core/sign-in/token-vault';
import { memoryStore, recordingLogger, tokens } from '../../../../support/core-fakes';

const USER: UserRecord = { _id: 'user-1', email: 'ada@example.test', firstname: 'Ada', lastname: 'L', hubs: [] } as unknown as UserRecord;
const ADA = { id: 'user-1', email: 'ada@example.test', firstname: 'Ada', lastname: 'L' };

const AUTH_PAGE = 'https://cloud.test/oauth2/authorise?state=s&code_challenge=c';

function setup(
  options: {
    load?: LoadResult;
    callback?: CallbackResult;
    getUser?: () => Promise<UserRecord>;
    startFails?: boolean;
    browserFails?: boolean;
    reopenFails?: boolean;
  } = {},
) {
  let saved: ReturnType<typeof tokens> | null = null;
  const vault = {
    backendKey: 'backend-1',
    load: async () => options.load ?? 'loaded',
    save: async (t: ReturnType<typeof tokens>) => void (saved = t),
    clear: () => void (saved = null),
    current: () => saved,
  } as unknown as TokenVault;
  let auth: AuthView = { status: 'restoring' };
  const states: AuthView[] = [];
  const store = memoryStore();
  const oauth = {
    start: vi.fn(async () => {
      if (options.startFails) throw new Error('no browser');
      return { url: AUTH_PAGE, opened: options.browserFails !== true };
    }),
    reopen: vi.fn(async () => {
      if (options.reopenFails) throw new Error('no browser');
      return true;
    }),
    cancel: vi.fn(() => true),
    handleCallback: vi.fn(async () => options.callback ?? ({ kind: 'tokens', tokens: tokens(1) } as CallbackResult)),
  };
  const identityChanges = vi.fn();
  const subject = createAuth({
    authUrl: 'https://cloud.test/oauth',
    vault,
    store,
    state: { auth: () => auth, setAuth: (next) => void states.push((auth = next)) },
    oauth,
    cloud: { getUser: options.getUser ?? (async () => USER) },
    logger: recordingLogger(),
    onIdentityChange: identityChanges,
  });
  return { auth: subject, states, store, oauth, identityChanges, saved: () => saved, current: () => auth };
}

describe('auth', () => {
  it('restores a saved sign-in: reads the user once and shows them signed in', async () => {
    const getUser = vi.fn(async () => USER);
    const t = setup({ getUser });
    await t.auth.restore();
    expect(t.current()).toEqual({ status: 'signed-in', user: ADA });
    expect(getUser).toHaveBeenCalledTimes(1);
    expect(t.auth.signedIn()).toBe(true);
  });

  it('an unreadable saved sign-in is removed, with the reason', async () => {
    const t = setup({ load: 'unreadable' });
    await t.auth.restore();
    expect(t.current()).toEqual({ status: 'signed-out', reason: UNREADABLE_REASON });
    expect(t.identityChanges).toHaveBeenCalledTimes(1);
    expect(t.auth.signedIn()).toBe(false);
  });

  it('an unreachable cloud keeps the sign-in with the user last seen', async () => {
    const first = setup();
    await first.auth.restore();
    const t = setup({ getUser: async () => Promise.reject(new AppError('cloud-unreachable', 'offline')) });
    for (const [key, value] of first.store.data) t.store.set(key, value);
    await t.auth.restore();
    expect(t.current()).toEqual({ status: 'signed-in', user: ADA });
  });

  it('signing in shows where the browser went; the tokens of the callback sign the user in as a new identity', async () => {
    const t = setup({ load: 'empty' });
    await t.auth.signIn();
    expect(t.current()).toEqual({ status: 'signing-in', authorizationOrigin: 'https://cloud.test', authorizationUrl: AUTH_PAGE, browserOpened: true });
    expect(await t.auth.handleCallback({ code: 'c', state: 's' })).toBe('accepted');
    expect(t.saved()).toEqual(tokens(1));
    expect(t.identityChanges).toHaveBeenCalledTimes(1);
    expect(t.current()).toEqual({ status: 'signed-in', user: ADA });
  });

  it('a browser that cannot be opened leaves the sign-in waiting, with its link to open by hand', async () => {
    const t = setup({ browserFails: true });
    await t.auth.signIn();
    expect(t.current()).toEqual({ status: 'signing-in', authorizationOrigin: 'https://cloud.test', authorizationUrl: AUTH_PAGE, browserOpened: false });
  });

  it('opens the waiting sign-in again in the browser, and says so when it cannot', async () => {
    const t = setup({ browserFails: true });
    await t.auth.signIn();
    await t.auth.reopenBrowser();
    expect(t.oauth.reopen).toHaveBeenCalledTimes(1);
    expect(t.current()).toMatchObject({ status: 'signing-in', browserOpened: true, authorizationUrl: AUTH_PAGE });

    const failing = setup({ reopenFails: true });
    await failing.auth.signIn();
    await expect(failing.auth.reopenBrowser()).rejects.toMatchObject({ code: 'internal', message: REOPEN_FAILED_REASON });
    expect(failing.current()).toMatchObject({ status: 'signing-in', browserOpened: false });

    const idle = setup({ load: 'empty' });
    await idle.auth.restore();
    await expect(idle.auth.reopenBrowser()).rejects.toMatchObject({ message: NOTHING_TO_REOPEN_REASON });
    expect(idle.oauth.reopen).not.toHaveBeenCalled();
  });

  it('a sign-in that cannot start at all signs out with a reason and fails the call', async () => {
    const t = setup({ startFails: true });
    await expect(t.auth.signIn()).rejects.toMatchObject({ code: 'internal', message: BROWSER_FAILED_REASON });
    expect(t.current()).toEqual({ status: 'signed-out', reason: BROWSER_FAILED_REASON });
  });

  it('a declined or expired sign-in says so; an unsolicited callback is ignored', async () => {
    const declined = setup({ callback: { kind: 'declined' } });
    expect(await declined.auth.handleCallback({})).toBe('accepted');
    expect(declined.current()).toEqual({ status: 'signed-out', reason: DECLINED_REASON });
    const ignored = setup({ callback: { kind: 'ignored' } });
    expect(await ignored.auth.handleCallback({})).toBe('ignored');
    expect(ignored.states).toEqual([]);
    const waiting = setup();
    await waiting.auth.signIn();
    waiting.auth.expired();
    expect(waiting.current()).toEqual({ status: 'signed-out', reason: SIGN_IN_EXPIRED_REASON });
    waiting.auth.expired(); // no longer signing in: nothing changes
    expect(waiting.states.map((view) => view.status)).toEqual(['signing-in', 'signing-in', 'signed-out']); // the second with the page's link
  });

  it('a user read that finishes after a sign-out is dropped', async () => {
    let answer!: (user: UserRecord) => void;
    const t = setup({ getUser: () => new Promise((resolve) => (answer = resolve)) });
    const restoring = t.auth.restore();
    await Promise.resolve();
    t.auth.signOut();
    answer(USER);
    await restoring;
    expect(t.current()).toEqual({ status: 'signed-out' });
    expect(t.oauth.cancel).toHaveBeenCalled();
  });

  it('the cloud ending the session forgets it with the reason, and leaves a sign-in in the browser alone', async () => {
    const t = setup();
    await t.auth.restore();
    t.auth.endSession('Your sign-in was revoked.');
    expect(t.current()).toEqual({ status: 'signed-out', reason: 'Your sign-in was revoked.' });
    expect(t.saved()).toBeNull();
    expect([...t.store.data.keys()].filter((key) => key.startsWith('user:'))).toEqual([]);
    expect(t.oauth.cancel).not.toHaveBeenCalled();
  });
});
