/**
 * Whether connections are waiting in the kernel for a server to accept them.
 *
 * libuv accepts one connection per turn of the event loop (libuv/libuv#3696, "unix: don't accept()
 * connections in a loop"), so a connection that arrives behind a burst waits for as many turns as there
 * are connections ahead of it, however short each turn's work for them. A server that accepted a
 * connection in each of its last `turns` turns has such a queue: the one sign of it Node gives, and one a
 * busy machine does not fake (an idle loop that gets little CPU accepts nothing it was not sent).
 *
 * Turns are told apart by a `setImmediate` at the end of each turn that accepted: the next turn ends with
 * another, and a turn that accepted nothing ends the count and the immediates (docs/legacy-functions.md, "Limits").
 */
import type { Server } from 'node:net';

export interface AcceptBacklog {
  /** Connections have been waiting to be accepted for the last `turns` turns or more. */
  readonly behind: boolean;
  /** Turns that accepted a connection, since the watch began: the clock of a backlog. */
  readonly acceptingTurns: number;
}

export function watchAcceptBacklog(server: Server, turns = 4): AcceptBacklog {
  let streak = 0;
  let acceptingTurns = 0;
  let acceptedThisTurn = false;
  let watching = false;
  const endOfTurn = () => {
    if (!acceptedThisTurn) {
      streak = 0;
      watching = false;
      return;
    }
    acceptedThisTurn = false;
    setImmediate(endOfTurn);
  };
  server.on('connection', () => {
    if (acceptedThisTurn) return;
    acceptedThisTurn = true;
    streak++;
    acceptingTurns++;
    if (!watching) {
      watching = true;
      setImmediate(endOfTurn);
    }
  });
  return {
    get behind() {
      return streak >= turns;
    },
    get acceptingTurns() {
      return acceptingTurns;
    },
  };
}
