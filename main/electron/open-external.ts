/**
 * The Electron host's OpenExternal: hands URLs to the system browser (RFC 8252 §8.12: never an embedded
 * user-agent), but only URLs on the configured authorisation origin. The core opens nothing else, so
 * anything else means a bug or a compromised caller, and `shell.openExternal` with an arbitrary URL can
 * launch local programs (file:, custom schemes).
 */
import { shell } from 'electron';
import { isLoopback } from '../backend';
import type { Logger, OpenExternal } from '../core/ports';

export function createOpenExternal(allowedOrigin: string, logger: Logger): OpenExternal {
  const allowed = parseWebUrl(allowedOrigin);
  if (allowed === undefined || allowed.origin !== allowedOrigin) throw new Error(`open-external: not an https (or loopback http) origin: ${allowedOrigin}`);
  return async (url) => {
    const parsed = parseWebUrl(url);
    if (parsed === undefined || parsed.origin !== allowed.origin || parsed.username !== '' || parsed.password !== '') {
      // Only the origin is logged: the query of an authorisation URL is not for the log.
      logger.warn('open-external: refused a URL outside the authorisation origin', { origin: parsed?.origin ?? 'unparseable' });
      throw new Error('Hubdesk opens only the sign-in page of its cloud in the browser.');
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
