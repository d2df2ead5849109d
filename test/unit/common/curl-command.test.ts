import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { curlCommand, replayedHeaders, shellQuote } from '../../../common/curl-command';

const bytes = (text: string) => new TextEncoder().encode(text);
const request = (body: Uint8Array | string, headers: [string, string][] = [['Content-Type', 'application/json']], method = 'POST') => ({
  method,
  url: 'http://127.0.0.1:8080/webhook/wh_1?hub=a&x=[1]',
  headers,
  body: typeof body === 'string' ? bytes(body) : body,
});

describe('shellQuote', () => {
  it('makes one word that a POSIX shell reads back as exactly the text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }).filter((text) => !text.includes('\u0000')),
        (text) => {
          expect(execFileSync('/bin/sh', ['-c', `printf '%s' ${shellQuote(text)}`], { encoding: 'utf8' })).toBe(text);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("writes a single quote as '\\''", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('curlCommand', () => {
  it('sends a text body as a quoted --data-binary and says no to the headers curl would add', () => {
    const command = curlCommand(
      request('{"a":"it\'s $HOME"}', [
        ['Content-Type', 'application/json'],
        ['X-Signature', 'v1,abc'],
      ]),
    );
    expect(command).toBe(
      [
        `curl --globoff`,
        `  -H 'Content-Type: application/json'`,
        `  -H 'X-Signature: v1,abc'`,
        `  -H 'User-Agent:'`,
        `  -H 'Accept:'`,
        `  -H 'Expect:'`,
        `  --data-binary '{"a":"it'\\''s $HOME"}'`,
        `  'http://127.0.0.1:8080/webhook/wh_1?hub=a&x=[1]'`,
      ].join(' \\\n'),
    );
  });

  it('leaves out hop-by-hop headers and the ones curl computes', () => {
    const headers: [string, string][] = [
      ['Host', 'example.test'],
      ['Content-Length', '2'],
      ['Connection', 'keep-alive'],
      ['Transfer-Encoding', 'chunked'],
      ['X-Kept', 'yes'],
    ];
    expect(replayedHeaders(headers)).toEqual([['X-Kept', 'yes']]);
    expect(curlCommand(request('{}', headers))).not.toMatch(/Host|Content-Length|Connection|Transfer-Encoding/);
  });

  it('pipes a binary body, or one starting with @, through printf byte for byte', () => {
    const binary = new Uint8Array([0, 1, 0x25, 0x27, 0x5c, 0xff, 0x41]);
    expect(curlCommand(request(binary))).toMatch(/^printf '\\000\\001%%\\047\\134\\377A' \| curl --globoff/);
    expect(curlCommand(request('@/etc/passwd'))).toMatch(/^printf '@\/etc\/passwd' \| curl/);
    expect(curlCommand(request('@/etc/passwd'))).toContain('--data-binary @-');
    // A format starting with "-" would be an option to printf (found by the property test: [0x2d, 0x00]).
    expect(curlCommand(request(new Uint8Array([0x2d, 0x00])))).toMatch(/^printf '\\055\\000' \| curl/);
  });

  it('names the method unless it is a POST with a body, and sends an empty header with curl’s ";" form', () => {
    expect(curlCommand(request('', [], 'GET'))).toMatch(/^curl --globoff \\\n {2}-X 'GET'/);
    expect(curlCommand(request('', [], 'POST'))).toContain(`-X 'POST'`);
    expect(curlCommand(request('x', [['X-Empty', '']]))).toContain(`-H 'X-Empty;'`);
    expect(curlCommand(request('x', [['X-Empty', '']]))).not.toContain('-X');
  });
});
