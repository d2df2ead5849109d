/**
 * The browser host's WebSocket protocol: the one IPC contract (`ipc-contract.ts`) carried as JSON
 * messages. The first client message must be `hello` with the per-run secret the host printed in
 * the app's URL fragment; until the host answers `welcome`, nothing else is accepted, so no other
 * local page or process can drive the app core.
 */
import { z } from 'zod';

export const BRIDGE_PATH = '/bridge';
/** Largest message either side sends; the contract's arguments and results are far smaller. */
export const BRIDGE_MAX_MESSAGE_BYTES = 1024 * 1024;
/** Close codes (4000–4999 are application-defined, RFC 6455 §7.4.2). */
export const CLOSE_UNAUTHORISED = 4401;
export const CLOSE_PROTOCOL_ERROR = 4400;

export const ClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), token: z.string().min(1).max(200) }),
  z.object({
    type: z.literal('invoke'),
    id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    channel: z.string().max(100),
    args: z.array(z.unknown()).max(16),
  }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export type ServerMessage =
  | { type: 'welcome' }
  | { type: 'result'; id: number; envelope: unknown }
  | { type: 'event'; name: string; payload: unknown };

export const ServerMessageSchema: z.ZodType<ServerMessage> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('welcome') }),
  z.object({ type: z.literal('result'), id: z.number(), envelope: z.unknown() }),
  z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() }),
]) as z.ZodType<ServerMessage>;

/** The app URL carries the secret in the fragment, which browsers never send to a server or in a Referer. */
export const TOKEN_FRAGMENT_KEY = 'token';
