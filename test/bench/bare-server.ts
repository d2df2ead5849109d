/** Baseline for the intake benchmark: a bare Node HTTP server that reads the body and answers 202 with JSON. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let counter = 0;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.stringify({ id: `evt_${++counter}` });
    response.writeHead(202, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
