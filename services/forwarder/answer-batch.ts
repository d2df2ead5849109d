/**
 * The intake's answers, written together once per turn of the event loop instead of one by one as each
 * request is handled: queued answers go out in a `setImmediate`, which Node runs after it has handled
 * every request that arrived in the turn's I/O phase.
 *
 * Why: a peer on the same host (a reverse proxy in front of the service, a sidecar, a load generator)
 * sleeps while it waits, and the kernel wakes it from the writer's CPU for each write that finds it
 * asleep; on a virtual machine that wake-up costs several times the write itself. Written one by one,
 * answers are spaced by the handling time of the next request, so nearly every write wakes the peer
 * again; written back to back, one wake-up serves the batch. Measured in docs/benchmarks.md.
 * Cost: an answer waits for the rest of its turn, at most the handling time of the requests that
 * arrived with it; with one request per turn (light load) it is written as soon as it is handled.
 */
import type { ServerResponse } from 'node:http';
import { writeJson } from '../shared/http-app';

export class AnswerBatch {
  private pending: { response: ServerResponse; status: number; json: string }[] = [];

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Queues a JSON answer (writeJson) for the end of this turn. */
  write(response: ServerResponse, status: number, json: string): void {
    if (this.pending.length === 0) setImmediate(this.flush);
    this.pending.push({ response, status, json });
  }

  private readonly flush = (): void => {
    const batch = this.pending;
    this.pending = [];
    for (const { response, status, json } of batch) {
      // One failed answer must not leave the others unanswered.
      try {
        writeJson(response, status, json);
      } catch (error) {
        this.onError(error);
      }
    }
  };
}
