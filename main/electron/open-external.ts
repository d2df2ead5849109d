/**
 * The Electron host's OpenExternal: hands URLs to the system browser (RFC 8252 §8.12: never an embedded
 * user-agent), but only URLs on the origins given: the authorisation origin, and the developer
 * portal's when one is configured. The core opens nothing else, so anything else means a bug or a
 * compromised caller, and `shell.openExternal` with an arbitrary URL can launch local programs (file:,
 * custom schemes).
 */
import { shell } from 'electron';
import { isLoopback } from '../backend';
import type { Logger, OpenExternal } from '../core/shared';

export function createOpenExternal(allowedOrigins: string | readonly string[], logger: Logger): OpenExternal {
  const origins = new Set(typeof allowedOrigins === 'string' ? [allowedOrigins] : allowedOrigins);
  for (const origin of origins) {
    if (parseWebUrl(origin)?.origin !== origin) throw new Error(`open-external: not an https (or loopback http) origin: ${origin}`);
  }
  return async (url) => {
    const parsed = parseWebUrl(url);
    if (parsed === undefined || !origins.has(parsed.origin) || parsed.username !== '' || parsed.password !== '') {
      // Only the origin is logged: the query of an authorisation URL is not for the log.
      logger.warn('open-external: refused a URL outside the allowed origins', { origin: parsed?.origin ?? 'unparseable' });
      throw new Error('Hubdesk opens only the sign-in page of its cloud and the developer portal in the browser.');
    }
    await shell.openExternal(parsed.href);
  };
}

function parseWebUrl(raw: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) return url;
  return undefined;
}
