/**
 * "Copy as curl" (docs/webhooks-app.md, "Copy as curl"): a POSIX shell command that sends a received webhook again, with the
 * same method, headers (hop-by-hop ones left out) and exactly the same body bytes.
 *
 * Every argument is single-quoted (the one character a single-quoted word cannot hold, `'`, is written
 * `'\''`), so nothing in a header or a URL is expanded by the shell. curl itself is told not to add to
 * the request: `--globoff` (a URL's `[` `]` `{` `}` are not ranges), and an empty header for each default
 * it would add that the original did not have (`User-Agent`, `Accept`, `Content-Type` which
 * `--data-binary` implies, `Expect` for large bodies). A body is sent with `--data-binary`, which keeps
 * its bytes; one that is not plain text (invalid UTF-8, control characters) or that starts with `@`
 * (curl would read a file of that name) is piped in by `printf` with octal escapes, byte for byte.
 * Runs in main and in the window alike (no Node API).
 */
import { strictUtf8 } from './base64';

export interface ReplayableRequest {
  method: string;
  url: string;
  /** In the order received; names as received. */
  headers: readonly (readonly [string, string])[];
  body: Uint8Array;
}

/** Headers of one connection, not of the message (RFC 9110 §7.6.1), and those curl computes itself. */
export const NOT_REPLAYED_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** Defaults curl adds unless told otherwise by an empty header of the same name. */
const CURL_DEFAULT_HEADERS = ['User-Agent', 'Accept', 'Content-Type', 'Expect'] as const;

/** The headers that go with a replay: the message's own, without hop-by-hop ones. */
export function replayedHeaders(headers: ReplayableRequest['headers']): [string, string][] {
  return headers.filter(([name]) => !NOT_REPLAYED_HEADERS.has(name.toLowerCase())).map(([name, value]) => [name, value]);
}

/** One POSIX shell word holding exactly `text`. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export function curlCommand(request: ReplayableRequest): string {
  const headers = replayedHeaders(request.headers);
  const has = (name: string) => headers.some(([header]) => header.toLowerCase() === name.toLowerCase());
  const hasBody = request.body.length > 0;
  const text = hasBody ? plainText(request.body) : undefined;
  const piped = hasBody && (text === undefined || text.startsWith('@'));

  // One option a line.
  const lines: string[] = ['curl --globoff'];
  if (request.method !== 'POST' || !hasBody) lines.push(`-X ${shellQuote(request.method)}`);
  for (const [name, value] of headers) lines.push(`-H ${shellQuote(value === '' ? `${name};` : `${name}: ${value}`)}`);
  const defaults = hasBody ? CURL_DEFAULT_HEADERS : CURL_DEFAULT_HEADERS.filter((name) => name !== 'Content-Type' && name !== 'Expect');
  for (const name of defaults) if (!has(name)) lines.push(`-H ${shellQuote(`${name}:`)}`);
  if (hasBody) lines.push(`--data-binary ${piped ? '@-' : shellQuote(text!)}`);
  lines.push(shellQuote(request.url));

  const command = lines.join(' \\\n  ');
  return piped ? `printf ${printfBytes(request.body)} | ${command}` : command;
}

/** The body as text when it is UTF-8 without control characters other than tab, newline and return. */
function plainText(bytes: Uint8Array): string | undefined {
  const text = strictUtf8(bytes);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
  return text === undefined || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

/**
 * A `printf` format (one shell word) that prints exactly `bytes`: printable ASCII as itself, `%` as
 * `%%`, `\` and every other byte as a three-digit octal escape (POSIX printf reads `\ddd`). A leading
 * `-` is escaped too: printf would take the format for an option.
 */
function printfBytes(bytes: Uint8Array): string {
  let format = '';
  for (const [index, byte] of bytes.entries()) {
    if (byte === 0x25) format += '%%';
    else if (byte === 0x2d && index === 0) format += '\\055';
    else if (byte >= 0x20 && byte < 0x7f && byte !== 0x5c && byte !== 0x27) format += String.fromCharCode(byte);
    else format += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `'${format}'`;
}
