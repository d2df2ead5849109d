/**
 * Errors that cross the IPC boundary. Every failure the renderer can see has one of these codes,
 * so the UI can say what happened and what to do; the message is for people and never holds a secret.
 */
export const ERROR_CODES = [
  'invalid-argument', // the caller sent something the contract does not allow
  'signed-out', // no valid sign-in: the user must sign in (again)
  'sign-in-in-progress', // a sign-in is already waiting for the browser
  'cloud-unreachable', // the cloud did not answer
  'cloud-error', // the cloud answered with something we could not use
  'hub-not-found', // no such hub in the user's record
  'hub-unreachable', // none of the hub's addresses answered
  'hub-session-lost', // the hub refused a fresh session
  'forbidden', // the grant lacks the scope for this
  'system-refused', // the operating system did not do what was asked (e.g. start at login)
  'internal', // a bug: logged in main, shown generically
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface SerializedError {
  code: ErrorCode;
  message: string;
}

const INTERNAL: SerializedError = { code: 'internal', message: 'Something went wrong inside Hubdesk. Details are in the log.' };

/** An error as the renderer may see it: an AppError's code and message, anything else as `internal` (details stay in the log). */
export function serializeError(error: unknown): SerializedError {
  return error instanceof AppError ? { code: error.code, message: error.message } : INTERNAL;
}

/** What every invoke returns over the transport: errors are values, so they survive IPC and WebSocket. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: SerializedError };
