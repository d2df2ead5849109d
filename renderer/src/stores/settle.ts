/**
 * Turns any outcome of a bridge call into an envelope. Main always answers with an envelope, but a
 * transport can reject (connection gone), deliver something malformed, or not answer at all; the
 * stores then show an error instead of throwing into React or waiting for ever.
 *
 * Every call has a deadline (docs/device-controls.md, "Connection state and deadlines"): a call main has not answered within `deadlineMs`
 * (ACTION_DEADLINE_MS unless the store was given another) settles as a failure, and an answer that
 * arrives later is ignored (the promise has settled; stores roll their optimistic values back).
 */
import type { Envelope, SerializedError } from '../../../common/app-error';
import { realSchedule, type Schedule } from '../../../common/schedule';

export type UiError = SerializedError;

/** How long any call to main may take before it counts as failed. */
export const ACTION_DEADLINE_MS = 10_000;

const LOST: UiError = { code: 'internal', message: 'Hubdesk lost its connection to the app. Please try again.' };
const UNREADABLE: UiError = { code: 'internal', message: 'Hubdesk received an answer it could not read. Please try again.' };
/** A change (a value, a favourite, a flow) main did not confirm in time. */
export const CHANGE_NOT_CONFIRMED = 'Hubdesk did not hear back in time; the change was not confirmed.';
/** Anything else main did not answer in time. */
export const NO_ANSWER_IN_TIME = 'Hubdesk did not hear back in time. Please try again.';

export interface SettleOptions {
  /** ACTION_DEADLINE_MS unless set (tests use fake timers or a shorter one). */
  deadlineMs?: number;
  /** The sentence when the deadline passes; NO_ANSWER_IN_TIME unless set. */
  timeoutMessage?: string;
  /** The timer port (common/schedule.ts); real timers unless set. */
  schedule?: Schedule;
}

/** Whether an error is the deadline's (not an answer from main). */
export const isTimeout = (error: UiError) => error.message === CHANGE_NOT_CONFIRMED || error.message === NO_ANSWER_IN_TIME;

export async function settle<T>(call: () => Promise<Envelope<T>>, options: SettleOptions = {}): Promise<Envelope<T>> {
  const deadlineMs = options.deadlineMs ?? ACTION_DEADLINE_MS;
  let cancel = () => {};
  const deadline = new Promise<Envelope<T>>((resolve) => {
    cancel = (options.schedule ?? realSchedule)(
      () => resolve({ ok: false, error: { code: 'internal', message: options.timeoutMessage ?? NO_ANSWER_IN_TIME } }),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([answer(call), deadline]);
  } finally {
    cancel();
  }
}

async function answer<T>(call: () => Promise<Envelope<T>>): Promise<Envelope<T>> {
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
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && 'message' in error && typeof error.message === 'string'
  );
}
