/**
 * The one listener mechanism of main/core: listeners for a subset of the contract's events, typed per
 * event name, for the core modules that emit them (session state, webhook listener, live channel).
 * A listener that throws is logged and does not stop the others.
 */
import type { EventName, EventPayload } from '../../../common/ipc-contract';
import type { Logger } from './ports';
import { errorMessage } from '../../../common/error-message';
import { createEmitter, type Emitter } from '../../../common/emitter';

export interface EventEmitter<E extends EventName> {
  emit<K extends E>(event: K, payload: EventPayload<K>): void;
  on<K extends E>(event: K, listener: (payload: EventPayload<K>) => void): () => void;
  clear(): void;
}

export function createEventEmitter<E extends EventName>(logger: Logger): EventEmitter<E> {
  const byEvent = new Map<E, Emitter<never>>();
  const of = <K extends E>(event: K) => {
    let emitter = byEvent.get(event) as Emitter<EventPayload<K>> | undefined;
    if (!emitter) {
      emitter = createEmitter<EventPayload<K>>((error) => logger.error(`core: a ${event} listener failed`, { error: errorMessage(error) }));
      byEvent.set(event, emitter as Emitter<never>);
    }
    return emitter;
  };
  return {
    emit: (event, payload) => of(event).emit(payload),
    on: (event, listener) => of(event).on(listener),
    clear: () => byEvent.clear(),
  };
}
