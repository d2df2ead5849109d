import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AnswerBatch } from '../../../../services/forwarder/answer-batch';

/** Records what is written to it, in one shared log so the order across responses shows. */
function fakeResponse(name: string, log: string[], failing = false): ServerResponse {
  const response = {
    writeHead(status: number, headers: Record<string, string | number>) {
      if (failing) throw new Error(`${name} is broken`);
      log.push(`${name} ${status} ${String(headers['content-type'])} ${String(headers['content-length'])}`);
      return response;
    },
    end(body: string) {
      log.push(`${name} ${body}`);
      return response;
    },
  };
  return response as unknown as ServerResponse;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('AnswerBatch', () => {
  it('writes nothing while the turn lasts, then every queued answer in order', async () => {
    const log: string[] = [];
    const batch = new AnswerBatch(() => {});
    batch.write(fakeResponse('a', log), 202, '{"id":"1"}');
    batch.write(fakeResponse('b', log), 202, '{"id":"2"}');
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual(['a 202 application/json; charset=utf-8 10', 'a {"id":"1"}', 'b 202 application/json; charset=utf-8 10', 'b {"id":"2"}']);
  });

  it('answers the others when one answer cannot be written, and reports it', async () => {
    const log: string[] = [];
    const errors: unknown[] = [];
    const batch = new AnswerBatch((error) => errors.push(error));
    batch.write(fakeResponse('a', log, true), 202, '{}');
    batch.write(fakeResponse('b', log), 202, '{}');
    await nextTurn();
    expect(log).toEqual(['b 202 application/json; charset=utf-8 2', 'b {}']);
    expect(errors).toEqual([new Error('a is broken')]);
  });

  it('starts a new batch after a flush', async () => {
    const log: string[] = [];
    const batch = new AnswerBatch(() => {});
    batch.write(fakeResponse('a', log), 202, '{}');
    await nextTurn();
    batch.write(fakeResponse('b', log), 202, '{}');
    expect(log).toHaveLength(2);
    await nextTurn();
    expect(log).toHaveLength(4);
  });
});
