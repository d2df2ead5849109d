/**
 * Who is signed in: the sign-in state machine. A saved sign-in is restored at start; `signIn` opens the
 * system browser (oauth-flow.ts) and the authorisation response ends in the vault or in a reason for
 * the user; a refresh the cloud refuses, or the user, signs out. Every change of identity bumps an
 * epoch (an answer for an older sign-in is dropped) and ends what belonged to the old one (`onIdentityChange`).
 */
import { z } from 'zod';
import { AppError } from '../../../common/app-error';
import type { UserView } from '../../../common/ipc-contract';
import type { UserRecord } from '../../../common/wire';
import type { CloudClient } from './cloud-client';
import type { OAuthCallbackParams } from './authorisation-response';
import type { OAuthFlow } from './oauth-flow';
import type { KeyValueStore, Logger } from '../shared';
import type { SessionState } from './session-state';
import type { TokenVault } from './token-vault';
import { errorMessage } from '../../../common/error-message';

export const SIGN_IN_EXPIRED_REASON = 'The sign-in in your browser took too long. Please sign in again.';
export const DECLINED_REASON = 'You declined access in your browser, so Hubdesk is not signed in.';
export const UNREADABLE_REASON = 'Your saved sign-in could not be read, so it was removed. Please sign in again.';
export const BROWSER_FAILED_REASON = 'Hubdesk could not open your browser to sign in.';
export const REOPEN_FAILED_REASON = 'Hubdesk could not open your browser. Copy the link and open it in your browser yourself.';
export const NOTHING_TO_REOPEN_REASON = 'No sign-in is waiting for the browser. Please sign in again.';

const UserViewRecordSchema = z.object({ id: z.string(), email: z.string(), firstname: z.string(), lastname: z.string() });

export interface AuthDeps {
  /** Where the authorisation page is (its origin is shown while the browser is open). */
  authUrl: string;
  vault: TokenVault;
  store: KeyValueStore;
  state: Pick<SessionState, 'auth' | 'setAuth'>;
  oauth: Pick<OAuthFlow, 'start' | 'reopen' | 'cancel' | 'handleCallback'>;
  cloud: Pick<CloudClient, 'getUser'>;
  logger: Logger;
  /** The signed-in identity changed (sign-out, or a new sign-in): end everything that belonged to the old one. */
  onIdentityChange(): void;
}

export interface Auth {
  /** Restores the saved sign-in, if any (call once at start, while the state says `restoring`). */
  restore(): Promise<void>;
  signIn(): Promise<void>;
  /** Opens the waiting sign-in's page in the browser again. */
  reopenBrowser(): Promise<void>;
  cancel(): void;
  /** The user signs out (a sign-in waiting for the browser is cancelled too). */
  signOut(): void;
  /** The cloud no longer accepts the sign-in: it is forgotten, and `reason` tells the user why. */
  endSession(reason: string): void;
  /** The sign-in in the browser took too long (oauth-flow's timer). */
  expired(): void;
  handleCallback(params: OAuthCallbackParams): Promise<'accepted' | 'ignored'>;
  /** What the contract's `signed-in` verbs need: a user, or a saved sign-in being restored. */
  signedIn(): boolean;
}

export function createAuth(deps: AuthDeps): Auth {
  const { vault, store, state, oauth, cloud, logger } = deps;
  const userKey = `user:${vault.backendKey}`;
  /** Bumped whenever the signed-in identity changes: late answers for an older sign-in are dropped. */
  let epoch = 0;

  const newIdentity = () => {
    epoch++;
    deps.onIdentityChange();
  };

  const signOut = (reason?: string) => {
    newIdentity();
    vault.clear();
    store.delete(userKey);
    state.setAuth(reason === undefined ? { status: 'signed-out' } : { status: 'signed-out', reason });
  };

  /** The user as last seen, kept (without any secret) so a restart shows who is signed in even offline. */
  const rememberUser = (user: UserRecord): UserView => {
    const view = { id: user._id, email: user.email, firstname: user.firstname, lastname: user.lastname };
    store.set(userKey, view);
    return view;
  };
  const rememberedUser = (): UserView | null => {
    const parsed = UserViewRecordSchema.safeParse(store.get(userKey));
    return parsed.success ? parsed.data : null;
  };

  /** After tokens are in the vault: reads the user and shows them as signed in. */
  const enterSignedIn = async (): Promise<void> => {
    const started = epoch;
    try {
      const record = await cloud.getUser();
      if (epoch !== started) return; // signed out (or in again) meanwhile
      state.setAuth({ status: 'signed-in', user: rememberUser(record) });
    } catch (error) {
      if (epoch !== started) return;
      if (error instanceof AppError && error.code === 'signed-out') return; // the cloud client already signed out
      // The cloud is unreachable or misbehaving: the sign-in is kept; the hub list will say what is wrong.
      logger.warn('auth: could not read the user record', { code: error instanceof AppError ? error.code : 'internal' });
      state.setAuth({ status: 'signed-in', user: rememberedUser() ?? { id: '', email: '', firstname: '', lastname: '' } });
    }
  };

  return {
    async restore() {
      const loaded = await vault.load();
      if (loaded === 'empty') return state.setAuth({ status: 'signed-out' });
      if (loaded === 'unreadable') return signOut(UNREADABLE_REASON);
      await enterSignedIn();
    },
    async signIn() {
      if (state.auth().status === 'signed-in') return;
      const authorizationOrigin = new URL(deps.authUrl).origin;
      state.setAuth({ status: 'signing-in', authorizationOrigin });
      try {
        const { url, opened } = await oauth.start();
        // A callback may have ended this sign-in already.
        if (state.auth().status === 'signing-in') state.setAuth({ status: 'signing-in', authorizationOrigin, authorizationUrl: url, browserOpened: opened });
      } catch (error) {
        logger.error('auth: could not open the system browser', { error: errorMessage(error) });
        state.setAuth({ status: 'signed-out', reason: BROWSER_FAILED_REASON });
        throw new AppError('internal', BROWSER_FAILED_REASON);
      }
    },
    async reopenBrowser() {
      const current = state.auth();
      if (current.status !== 'signing-in') throw new AppError('invalid-argument', NOTHING_TO_REOPEN_REASON);
      let opened: boolean;
      try {
        opened = await oauth.reopen();
      } catch (error) {
        logger.warn('auth: could not open the system browser again', { error: errorMessage(error) });
        const now = state.auth();
        if (now.status === 'signing-in') state.setAuth({ ...now, browserOpened: false });
        throw new AppError('internal', REOPEN_FAILED_REASON);
      }
      if (!opened) throw new AppError('invalid-argument', NOTHING_TO_REOPEN_REASON);
      const now = state.auth();
      if (now.status === 'signing-in') state.setAuth({ ...now, browserOpened: true });
    },
    cancel() {
      oauth.cancel();
      if (state.auth().status === 'signing-in') state.setAuth({ status: 'signed-out' });
    },
    signOut() {
      oauth.cancel();
      signOut();
    },
    endSession: (reason) => signOut(reason),
    expired() {
      if (state.auth().status === 'signing-in') state.setAuth({ status: 'signed-out', reason: SIGN_IN_EXPIRED_REASON });
    },
    async handleCallback(params) {
      const result = await oauth.handleCallback(params);
      switch (result.kind) {
        case 'ignored':
          return 'ignored';
        case 'tokens':
          newIdentity();
          await vault.save(result.tokens);
          await enterSignedIn();
          return 'accepted';
        case 'declined':
          state.setAuth({ status: 'signed-out', reason: DECLINED_REASON });
          return 'accepted';
        case 'expired':
          state.setAuth({ status: 'signed-out', reason: SIGN_IN_EXPIRED_REASON });
          return 'accepted';
        case 'failed':
          state.setAuth({ status: 'signed-out', reason: result.reason });
          return 'accepted';
      }
    },
    signedIn() {
      const { status } = state.auth();
      return status === 'signed-in' || status === 'restoring';
    },
  };
}
