/** What the user types to replay a message (docs/webhooks-app.md, "Replay"), checked before it is sent: pure functions. */
import { firstJsonSyntaxError } from '../../../common/json-syntax-error';
import { errorMessage } from '../../../common/error-message';

/** "Name: value" lines → pairs; blank lines ignored. */
export function parseHeaderLines(text: string): { ok: true; headers: [string, string][] } | { ok: false; issue: string } {
  const headers: [string, string][] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/.test(name)) return { ok: false, issue: `Header line ${index + 1} is not “Name: value” with a valid name.` };
    headers.push([name, line.slice(colon + 1).trim()]);
  }
  return { ok: true, headers };
}

export function httpUrlProblem(text: string): string | null {
  if (text === 'intake') return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'A replay goes to an http:// or https:// URL.';
  } catch {
    return 'This is not a URL (for example http://localhost:3000/webhook).';
  }
}

/** Where a JSON body stops parsing, in words with its line and column; null when it parses. */
export function jsonProblem(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const first = firstJsonSyntaxError(text);
    if (!first) return `The body is not valid JSON: ${errorMessage(error)}`;
    return `The body is not valid JSON (line ${first.line}, column ${first.column}): ${first.problem}.`;
  }
}
