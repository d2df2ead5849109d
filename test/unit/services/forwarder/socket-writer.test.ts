import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { TurnWriter } from '../../../../services/forwarder/socket-writer';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An open socket that records the tap frames sent to it, in one shared log with the keyed writes. */
const fakeSocket = (log: string[]) => ({ readyState: 1, send: (frame: string) => log.push(`tap ${frame}`) }) as unknown as WebSocket;

describe('TurnWriter', () => {
  it('writes each key once at the end of the turn, then the tap frames', async () => {
    const log: string[] = [];
    const writer = new TurnWriter();
    const a = { name: 'a' };
    writer.tapSoon(fakeSocket(log), 't1');
    writer.soon(a, (key) => log.push(`write ${key.name}`));
    writer.soon(a, (key) => log.push(`write ${key.name}`));
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual(['write a', 'tap t1']);
  });

  it('flush writes what is queued at once, in the same order, and the end of the turn does not write it again', async () => {
    const log: string[] = [];
    const writer = new TurnWriter();
    writer.tapSoon(fakeSocket(log), 't1');
    writer.soon({ name: 'a' }, (key) => log.push(`write ${key.name}`));
    writer.flush();
    expect(log).toEqual(['write a', 'tap t1']);
    // Asked for after the flush, in the same turn: written at its end, once.
    writer.soon({ name: 'b' }, (key) => log.push(`write ${key.name}`));
    await nextTurn();
    await nextTurn();
    expect(log).toEqual(['write a', 'tap t1', 'write b']);
  });
});
