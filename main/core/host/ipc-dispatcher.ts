/**
 * Turns an untrusted (channel, args) pair from any transport into a validated handler call.
 * Both hosts use it, so validation, access and error mapping are identical over IPC and WebSocket:
 * a verb the contract declares `signed-in` is refused with `signed-out` while nobody is signed in,
 * before its handler runs (handlers do not check it again).
 */
import { AppError, type Envelope, serializeError } from '../../../common/app-error';
import { type Handlers, invokeContract, isChannel } from '../../../common/ipc-contract';
import type { Logger } from '../shared';
import { errorMessage } from '../../../common/error-message';

export type Dispatch = (channel: unknown, args: unknown) => Promise<Envelope<unknown>>;

/** Whether a user is signed in (or a saved sign-in is being restored), as the core knows it. */
export interface AccessState {
  signedIn(): boolean;
}

export const NOT_SIGNED_IN = new AppError('signed-out', 'You are not signed in.');

export function createDispatcher(handlers: Handlers, logger: Logger, access: AccessState): Dispatch {
  return async (channel, args) => {
    if (!isChannel(channel)) {
      logger.warn('ipc: unknown channel refused', { channel: typeof channel === 'string' ? channel.slice(0, 80) : typeof channel });
      return failure(new AppError('invalid-argument', 'Unknown request.'));
    }
    const parsed = invokeContract[channel].args.safeParse(args);
    if (!parsed.success) {
      logger.warn('ipc: arguments refused', { channel, issue: parsed.error.issues[0]?.message });
      return failure(new AppError('invalid-argument', `Invalid arguments for ${channel}.`));
    }
    if (invokeContract[channel].access === 'signed-in' && !access.signedIn()) return failure(NOT_SIGNED_IN);
    try {
      const handler = handlers[channel] as (...a: unknown[]) => Promise<unknown>;
      const value = await handler(...(parsed.data as unknown[]));
      return { ok: true, value };
    } catch (error) {
      if (!(error instanceof AppError)) logger.error('ipc: handler failed', { channel, error: errorMessage(error) });
      return { ok: false, error: serializeError(error) };
    }
  };
}

function failure(error: AppError): Envelope<never> {
  return { ok: false, error: serializeError(error) };
}
