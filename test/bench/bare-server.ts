/**
 * Baseline for the intake benchmark: a bare Node HTTP server that reads the body and answers 202 with
 * JSON. With REDIS_URL it first stores the body as the forwarder's intake does at its least (one script:
 * a shared sequence, one stream entry, a trimmed stream) and answers once Redis has: the floor of a 202
 * given after the store, on this machine, with none of the forwarder's code.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

const STORE = `local sequence = redis.call('INCR', KEYS[1])
redis.call('XADD', KEYS[2], sequence .. '-0', 'f', ARGV[1])
redis.call('XTRIM', KEYS[2], 'MAXLEN', 1000)
return sequence`;

const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL, { enableAutoPipelining: false }) : undefined;
const storeSha = redis ? ((await redis.script('LOAD', STORE)) as string) : undefined;

let counter = 0;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const answer = (sequence: number) => {
      const body = JSON.stringify({ id: `evt_${sequence}` });
      response.writeHead(202, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    };
    if (!redis) return answer(++counter);
    redis.evalsha(storeSha!, 2, 'bench:sequence', 'bench:stream', Buffer.concat(chunks)).then(
      (sequence) => answer(Number(sequence)),
      () => response.writeHead(503).end(),
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.once('SIGTERM', () => server.close(() => void (redis?.quit() ?? Promise.resolve()).then(() => process.exit(0))));
