/**
 * The IPC contract of the session: who is signed in, the notices, how tokens are kept. Assembled with the
 * other domains into the one contract by common/ipc-contract.ts.
 */
import { z } from 'zod';
import { ANYONE, noArgs } from './shared';

// ---- Views: what the renderer is allowed to know. No token, secret or session ever appears here.

export const UserViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
});
export type UserView = z.infer<typeof UserViewSchema>;

export const AuthViewSchema = z.discriminatedUnion('status', [
  /** `reason` says why the user is signed out when it was not their own choice. */
  z.object({ status: z.literal('signed-out'), reason: z.string().optional() }),
  /** Tokens were found at start-up and are being checked with the cloud. */
  z.object({ status: z.literal('restoring') }),
  /**
   * Waiting for the browser. `authorizationUrl` is the page to sign in on (PKCE challenge and state, no
   * secret: RFC 8252 lets the user open it), shown with Copy and Open again; `browserOpened` is false
   * when Hubdesk could not open the browser itself.
   */
  z.object({
    status: z.literal('signing-in'),
    authorizationOrigin: z.string(),
    authorizationUrl: z.string().max(8192).optional(),
    browserOpened: z.boolean().optional(),
  }),
  z.object({ status: z.literal('signed-in'), user: UserViewSchema }),
]);
export type AuthView = z.infer<typeof AuthViewSchema>;

export const NoticeSchema = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  /** An action the user can take from the notice, e.g. opting in to weaker token storage. */
  action: z.enum(['allow-plaintext-storage']).optional(),
});
export type Notice = z.infer<typeof NoticeSchema>;

export const SessionViewSchema = z.object({
  auth: AuthViewSchema,
  notices: z.array(NoticeSchema),
  /** `portalUrl`: the developer portal where webhooks are created, or null when none is known. */
  backend: z.object({
    authUrl: z.string(),
    embedded: z.boolean(),
    portalUrl: z.string().nullable(),
    /** The embedded demo's forwarder has a ready webhook (`webhooks.useDemo`); never its secrets. */
    demoWebhook: z.boolean().optional(),
  }),
  /** How tokens are kept: encrypted on disk, or only in memory until the app quits. */
  tokenStorage: z.enum(['encrypted', 'memory-only', 'plaintext-opt-in']),
  /** The user's choice: may a hub be reached over its unencrypted LAN route once the secure one failed? */
  allowUnencryptedRoutes: z.boolean(),
});
export type SessionView = z.infer<typeof SessionViewSchema>;

export const sessionInvokes = {
  'session.get': { args: noArgs, result: SessionViewSchema, access: ANYONE },
  'auth.signIn': { args: noArgs, result: z.void(), access: ANYONE },
  'auth.cancel': { args: noArgs, result: z.void(), access: ANYONE },
  /** Opens the pending sign-in's page in the browser again (fails when no sign-in is waiting or the browser cannot be opened). */
  'auth.reopenBrowser': { args: noArgs, result: z.void(), access: ANYONE },
  'auth.signOut': { args: noArgs, result: z.void(), access: ANYONE },
  'vault.allowPlaintextStorage': { args: z.tuple([z.boolean()]), result: z.void(), access: ANYONE },
  'notices.dismiss': { args: z.tuple([z.string().min(1).max(100)]), result: z.void(), access: ANYONE },
} as const;

export const sessionEvents = {
  'session.changed': SessionViewSchema,
} as const;
