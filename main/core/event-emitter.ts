/**
 * The one listener mechanism of main/core: listeners for a subset of the contract's events, typed per
 * event name, for the core modules that emit them (session state, webhook listener, live channel).
 * A listener that throws is logged and does not stop the others.
 */
import type { EventName, EventPayload } from '../../common/ipc-contract';
import type { Logger } from './ports';
import { errorMessage } from '../../common/error-message';

export interface EventEmitter<E extends EventName> {
  emit<K extends E>(event: K, payload: EventPayload<K>): void;
  on<K extends E>(event: K, listener: (payload: EventPayload<K>) => void): () => void;
  clear(): void;
}

export function createEventEmitter<E extends EventName>(logger: Logger): EventEmitter<E> {
  const listeners = new Map<E, Set<(payload: never) => void>>();
  return {
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) {
        try {
          (listener as (payload: EventPayload<typeof event>) => void)(payload);
        } catch (error) {
          logger.error(`core: a ${event} listener failed`, { error: errorMessage(error) });
        }
      }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
    clear: () => listeners.clear(),
  };
}
