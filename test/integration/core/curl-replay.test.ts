/**
 * "Copy as curl" run by a real curl (docs/webhooks-app.md, "Copy as curl"): the command reaches a test server on
 * loopback with the same method, the same headers and exactly the same body bytes, for text, binary
 * and hostile bodies and header values alike.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand, type ReplayableRequest } from '../../../common/curl-command';

interface Received {
  method: string;
  url: string;
  headers: [string, string][];
  body: Buffer;
}

let received: Received[] = [];
const server = createServer((request: IncomingMessage, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const headers: [string, string][] = [];
    for (let i = 0; i < request.rawHeaders.length; i += 2) headers.push([request.rawHeaders[i]!, request.rawHeaders[i + 1]!]);
    received.push({ method: request.method!, url: request.url!, headers, body: Buffer.concat(chunks) });
    response.end('ok');
  });
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs the command as a user would paste it into a shell (the server is in this process: not synchronously); returns what the server received. */
async function run(request: ReplayableRequest): Promise<Received> {
  received = [];
  await promisify(execFile)('/bin/sh', ['-c', `${curlCommand(request)} --silent --show-error --output /dev/null --max-time 10`]);
  expect(received).toHaveLength(1);
  return received[0]!;
}

const headerToken = fc
  .stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/)
  .filter((name) => !/^(host|content-length|connection|keep-alive|te|trailer|transfer-encoding|upgrade|expect|proxy-.*)$/i.test(name));
// Header values: visible ASCII and spaces inside (HTTP trims the ends), quotes and shell characters included.
const headerValue = fc.stringMatching(/^[!-~]([ !-~]{0,30}[!-~])?$/);

describe('curl replays a message exactly', () => {
  it('a JSON body with quotes, $ and backticks, to a URL with brackets', async () => {
    const body = Buffer.from('{"name":"it\'s `id` $(whoami) $HOME","list":[1,2]}');
    const got = await run({
      method: 'POST',
      url: `${base}/webhook/wh?x=[1]&y={a}`,
      headers: [
        ['Content-Type', 'application/json'],
        ['X-Quote', `a'b"c`],
      ],
      body,
    });
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/webhook/wh?x=[1]&y={a}');
    expect(got.body.equals(body)).toBe(true);
    expect(got.headers.filter(([name]) => !/^(host|content-length)$/i.test(name))).toEqual([
      ['Content-Type', 'application/json'],
      ['X-Quote', `a'b"c`],
    ]);
  });

  it('any bytes, any method, any headers: the same at the server (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
        fc.uint8Array({ maxLength: 300 }),
        fc.uniqueArray(fc.tuple(headerToken, headerValue), { maxLength: 5, selector: ([name]) => name.toLowerCase() }),
        async (method, body, headers) => {
          const got = await run({ method, url: `${base}/in`, headers, body });
          expect(got.method).toBe(method);
          expect(Buffer.from(got.body).equals(Buffer.from(body))).toBe(true);
          expect(got.headers.filter(([name]) => !/^(host|content-length)$/i.test(name))).toEqual(headers);
        },
      ),
      { numRuns: 40 },
    );
  });
});
