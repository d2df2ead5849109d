/**
 * A webhook's first message, as the app shows it right after the webhook is made (docs/webhooks-app.md,
 * "The first webhook"): the URL a sender posts to (with `?hub=<id>` when the registration names a hub, which
 * the forwarder routes by: without it the sender's request reaches nobody) and a request the registration
 * matches, with a `curl` command that sends it.
 */
import { shellQuote } from './curl-command';
import type { WebhookRouting } from './ipc-contract';
import { parseKeyPath } from './key-path';

export interface FirstMessage {
  url: string;
  /** Header name and value pairs besides what curl adds. */
  headers: [string, string][];
  /** The JSON body. */
  body: string;
  curl: string;
}

/** The intake URL a sender is given: with `?hub=<id>` for a registration naming a hub. */
export function routedIntakeUrl(intakeUrl: string, routing: WebhookRouting): string {
  return routing.kind === 'hub' ? `${intakeUrl}?${new URLSearchParams({ hub: routing.hubId }).toString()}` : intakeUrl;
}

/**
 * A request this registration receives: for key values, the first value placed where the webhook's key path
 * reads it (in the body, a header or the query); a key path that does not parse leaves it out.
 */
export function firstMessage(intakeUrl: string, routing: WebhookRouting, keyPath: string | null): FirstMessage {
  const url = new URL(routedIntakeUrl(intakeUrl, routing));
  const headers: [string, string][] = [['content-type', 'application/json']];
  let body: unknown = { hello: 'from curl' };
  const placed = routing.kind === 'keys' && keyPath !== null ? parsedOrNull(keyPath) : null;
  if (placed && routing.kind === 'keys') {
    const value = routing.values[0]!;
    const [first] = placed.segments;
    if (placed.root === 'body') body = nest(placed.segments, value);
    else if (typeof first === 'string' && placed.root === 'query') url.searchParams.set(first, String(value));
    else if (typeof first === 'string') headers.push([first, String(value)]);
  }
  const text = JSON.stringify(body);
  const curl = [
    'curl',
    shellQuote(url.href),
    ...headers.flatMap(([name, value]) => ['-H', shellQuote(`${name}: ${value}`)]),
    '--data-binary',
    shellQuote(text),
  ].join(' ');
  return { url: url.href, headers, body: text, curl };
}

function parsedOrNull(keyPath: string) {
  try {
    return parseKeyPath(keyPath);
  } catch {
    return null;
  }
}

/** `value` at `segments` in a new JSON value: names make objects, indexes arrays (earlier places null). */
function nest(segments: readonly (string | number)[], value: unknown): unknown {
  return segments.reduceRight<unknown>(
    (inner, segment) => (typeof segment === 'number' ? [...Array<null>(segment).fill(null), inner] : { [segment]: inner }),
    value,
  );
}
