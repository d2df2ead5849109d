/**
 * One set of listeners of one kind of value, the only listener mechanism of main, the renderer and the
 * services: `on` returns the unsubscribe, `emit` tells each listener in turn, and one that throws does
 * not stop the others. Its error goes to `onError` (a logger, usually); without one, the first error is
 * thrown again once every listener was told.
 */
export interface Emitter<T> {
  on(listener: (value: T) => void): () => void;
  emit(value: T): void;
  clear(): void;
  /** Listeners now. */
  readonly size: number;
}

export function createEmitter<T>(onError?: (error: unknown) => void): Emitter<T> {
  const listeners = new Set<(value: T) => void>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit(value) {
      let failed: { error: unknown } | undefined;
      for (const listener of [...listeners]) {
        try {
          listener(value);
        } catch (error) {
          if (onError) onError(error);
          else failed ??= { error };
        }
      }
      if (failed) throw failed.error;
    },
    clear: () => listeners.clear(),
    get size() {
      return listeners.size;
    },
  };
}
