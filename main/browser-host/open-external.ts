/**
 * Opens a URL in the user's default browser (RFC 8252: the system browser, never an embedded one).
 * With HUBDESK_OPEN_EXTERNAL=none it only prints `open-external: <url>` on stdout — for headless
 * machines and for the end-to-end tests, which play the browser themselves.
 */
import { spawn } from 'node:child_process';
import type { Logger, OpenExternal } from '../core/shared';
import { errorMessage } from '../../common/error-message';

export const OPEN_EXTERNAL_LINE_PREFIX = 'open-external: ';

export function createOpenExternal(env: NodeJS.ProcessEnv, logger: Logger, print: (line: string) => void): OpenExternal {
  const printOnly = env.HUBDESK_OPEN_EXTERNAL === 'none';
  return async (url) => {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`refusing to open a ${parsed.protocol} URL`);
    if (printOnly) {
      print(`${OPEN_EXTERNAL_LINE_PREFIX}${parsed.href}`);
      return;
    }
    await openInBrowser(parsed.href).catch((error: unknown) => {
      // No browser launcher: the user can still open the printed address by hand.
      logger.warn('could not open the browser; open this address yourself', { error: errorMessage(error) });
      print(`${OPEN_EXTERNAL_LINE_PREFIX}${parsed.href}`);
    });
  };
}

/** Hands a URL to the desktop's default browser; rejects when no launcher could be started. */
export function openInBrowser(url: string): Promise<void> {
  const [command, args] = browserCommand(url);
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('error', reject);
  });
}

function browserCommand(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}
