/** The browser host's bridge frames as a test reads them: one at a time, in order, and when the socket closed. */
import type { WebSocket } from 'ws';

export function bridgeMessages(ws: WebSocket): { next(): Promise<Record<string, unknown>>; closed: Promise<number> } {
  const queue: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => void)[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  return {
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiters.push(resolve))),
    closed: new Promise((resolve) => ws.on('close', (code) => resolve(code))),
  };
}
