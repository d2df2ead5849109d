/**
 * The browser host's WebSocket protocol: the one IPC contract (`ipc-contract.ts`) carried as JSON
 * messages. The host speaks first: a `challenge` naming its run and a fresh nonce. The first client
 * message must be `hello` with the per-run secret the host printed in the app's URL fragment; until
 * the host answers `welcome`, nothing else is accepted, so no other local page or process can drive
 * the app core. A tab welcomed by the previous run of the same profile may instead `resume`, proving
 * the resume key that run gave it (common/bridge-resume.ts); the host answers `resumed` with its own
 * proof and the new secret, and the tab then says `hello` with it (docs/architecture.md, "The browser
 * host across restarts").
 */
import { z } from 'zod';
import { RESUME_PROOF_PATTERN } from './bridge-resume';

export const BRIDGE_PATH = '/bridge';
/** Largest message either side sends; the contract's arguments and results are far smaller. */
export const BRIDGE_MAX_MESSAGE_BYTES = 1024 * 1024;
/** Close codes (4000–4999 are application-defined, RFC 6455 §7.4.2). */
export const CLOSE_UNAUTHORISED = 4401;
export const CLOSE_PROTOCOL_ERROR = 4400;
/**
 * One tab at a time drives the app (its one open hub, its one view of the session): a page that says
 * hello with `takeOver` (its first hello, or the user's "Use here") closes the tab in use with this code;
 * a tab that reconnects by itself while another is in use is closed with it instead. A tab closed so
 * does not reconnect by itself; it offers to take the app back (docs/architecture.md, "The browser
 * host across restarts", one tab at a time).
 */
export const CLOSE_SUPERSEDED = 4409;

/** Nonces, keys and run ids: 256 random bits as base64url (`randomToken`). */
export const TokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
const ProofSchema = z.string().regex(RESUME_PROOF_PATTERN);

export const ClientMessageSchema = z.discriminatedUnion('type', [
  /** `takeOver`: the page's first hello (a page the user just opened or reloaded), which takes the app from another tab. */
  z.object({ type: z.literal('hello'), token: z.string().min(1).max(200), takeOver: z.boolean().optional() }),
  z.object({ type: z.literal('resume'), nonce: TokenSchema, proof: ProofSchema }),
  z.object({
    type: z.literal('invoke'),
    id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    channel: z.string().max(100),
    args: z.array(z.unknown()).max(16),
  }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export type ServerMessage =
  /** First on every connection: which run of the host this is, and a nonce for a `resume`. */
  | { type: 'challenge'; run: string; nonce: string }
  /** The new secret, to a tab that proved the previous run's resume key, with the host's own proof. */
  | { type: 'resumed'; token: string; proof: string }
  /** `resumeKey`: what a next run will ask for (kept in the tab's memory only); `build`: which renderer this run serves. */
  | { type: 'welcome'; resumeKey: string; build: string }
  | { type: 'result'; id: number; envelope: unknown }
  | { type: 'event'; name: string; payload: unknown };

export const ServerMessageSchema: z.ZodType<ServerMessage> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('challenge'), run: TokenSchema, nonce: TokenSchema }),
  z.object({ type: z.literal('resumed'), token: z.string().min(1).max(200), proof: ProofSchema }),
  z.object({ type: z.literal('welcome'), resumeKey: TokenSchema, build: z.string().max(100) }),
  z.object({ type: z.literal('result'), id: z.number(), envelope: z.unknown() }),
  z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() }),
]) as z.ZodType<ServerMessage>;

/** The app URL carries the secret in the fragment, which browsers never send to a server or in a Referer. */
export const TOKEN_FRAGMENT_KEY = 'token';
