/**
 * How frames reach listener and tap sockets.
 *
 * - Back-pressure: nothing more is written to a socket holding over HIGH_WATER_BYTES unsent; what waits
 *   stays queued (a listener's messages) or is skipped (a tap's events).
 * - Corking: frames written together leave in one write (a writev) of the TCP connection under the
 *   WebSocket, not one system call each.
 * - Once per turn: writes asked for during a turn of the event loop are made together at its end, as the
 *   intake's answers are (answer-batch.ts): each write that finds the listener's process asleep wakes it,
 *   and on a virtual machine that wake-up costs several times the write (docs/benchmarks.md). Tap frames
 *   go after the listeners' writes of the same turn, so an app holding both sockets gets an intake's
 *   delivery (with its body) before the tap event that leaves the body out for it. A caller that has a
 *   natural batch of its own (on Redis, the intakes of one script's reply) writes it with `flush` as soon
 *   as the batch is taken, rather than after the rest of the turn.
 */
import type { Socket } from 'node:net';
import { WebSocket } from 'ws';

export const HIGH_WATER_BYTES = 1024 * 1024;

/** The TCP connection under each WebSocket (from its upgrade request). */
const connectionOf = new WeakMap<WebSocket, Socket>();

export function rememberConnection(socket: WebSocket, connection: Socket): void {
  connectionOf.set(socket, connection);
}

/**
 * Calls `writeAll` with a `write(frame)` that sends the frame and returns true, or returns false (sending
 * nothing) once the socket holds over HIGH_WATER_BYTES; the connection is corked meanwhile.
 */
export function sendCorked(socket: WebSocket, writeAll: (write: (frame: string) => boolean) => void): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  const connection = connectionOf.get(socket);
  connection?.cork();
  writeAll((frame) => {
    if (socket.bufferedAmount > HIGH_WATER_BYTES) return false;
    socket.send(frame);
    return true;
  });
  connection?.uncork();
}

/** Writes every frame (over the high-water mark too: they were taken for this socket already), corked. */
export function sendAllCorked(socket: WebSocket, frames: readonly string[]): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  const connection = connectionOf.get(socket);
  connection?.cork();
  for (const frame of frames) socket.send(frame);
  connection?.uncork();
}

export class TurnWriter {
  /** Each key with its write (a function made once, not per call: this runs per delivery). */
  private readonly writes = new Map<object, (key: never) => void>();
  private tapFrames: Array<{ socket: WebSocket; frame: string }> = [];
  private scheduled = false;

  /** Runs `write(key)` at the end of this turn, once however often it is asked for the same `key`. */
  soon<K extends object>(key: K, write: (key: K) => void): void {
    this.writes.set(key, write);
    this.schedule();
  }

  /** Sends a tap frame at the end of this turn, after the `soon` writes. */
  tapSoon(socket: WebSocket, frame: string): void {
    this.tapFrames.push({ socket, frame });
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  /** Makes the writes asked for so far now, rather than at the end of the turn. */
  readonly flush = (): void => {
    this.scheduled = false;
    for (const [key, write] of this.writes) (write as (key: object) => void)(key);
    this.writes.clear();
    const frames = this.tapFrames;
    this.tapFrames = [];
    for (const { socket, frame } of frames) if (socket.readyState === WebSocket.OPEN) socket.send(frame);
  };
}
