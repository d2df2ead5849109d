/**
 * Turns any outcome of a bridge call into an envelope. Main always answers with an envelope, but a
 * transport can reject (connection gone) or deliver something malformed; the stores then show an
 * error instead of throwing into React.
 */
import type { Envelope, SerializedError } from '../../../common/app-error';

export type UiError = SerializedError;

const LOST: UiError = { code: 'internal', message: 'Hubdesk lost its connection to the app. Please try again.' };
const UNREADABLE: UiError = { code: 'internal', message: 'Hubdesk received an answer it could not read. Please try again.' };

export async function settle<T>(call: () => Promise<Envelope<T>>): Promise<Envelope<T>> {
  let envelope: unknown;
  try {
    envelope = await call();
  } catch {
    return { ok: false, error: LOST };
  }
  if (isEnvelope(envelope)) return envelope as Envelope<T>;
  return { ok: false, error: UNREADABLE };
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  // A void result has no `value` once it has crossed JSON (the browser host's WebSocket).
  if (value.ok === true) return true;
  if (value.ok !== false || !('error' in value)) return false;
  const error = value.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error &&
    typeof error.message === 'string'
  );
}
