/**
 * A lingering close, after nginx's (`lingering_close`): a request refused while its body is still
 * arriving (413 for a body over the limit) is answered, then what the client still sends is read and
 * dropped until the client closes its side (then so does the server) or LINGER_MS have passed.
 *
 * Closing at once would leave the client's unread data in the server's receive buffer, and the kernel
 * answers that with a reset: a client still writing its body then fails with EPIPE or ECONNRESET, and
 * many never read the answer that was already on its way. Bounded by time, not bytes: a client gets
 * LINGER_MS to notice the answer, however fast it sends, and then the connection is destroyed.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export const LINGER_MS = 5_000;

/**
 * Drops the rest of the request's body as it arrives, and makes the server's close of its connection
 * (node:http calls `destroySoon` once a `Connection: close` answer is written) a lingering one. Call it
 * before writing the answer.
 */
export function lingerOnClose(request: IncomingMessage, lingerMs = LINGER_MS): void {
  // A body reader that gave up (raw-body pauses the request on its limit) would stop the socket's reads too.
  request.resume();
  request.socket.destroySoon = function lingeringClose(this: Socket) {
    const deadline = setTimeout(() => this.destroy(), lingerMs);
    deadline.unref();
    this.once('close', () => clearTimeout(deadline));
    // Not even half-closed meanwhile: many clients stop sending on a FIN and fail the request.
    this.once('end', () => this.end());
    if (this.readableEnded) this.end();
  };
}
