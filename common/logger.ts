/**
 * The one logging interface of the app and the reference services, and the console logger the hosts
 * and `npm run stack` use: one JSON-ish line per record on stderr, so stdout stays free for the
 * machine-read lines (the browser host's address, the stack's JSON). It redacts nothing by itself:
 * callers never pass secrets (see docs/security.md).
 */

/** Messages and non-secret fields (codes, statuses, ids); never a token or a secret. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

type Level = 'info' | 'warn' | 'error';

export function createConsoleLogger(scope: string, write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const log = (level: Level) => (message: string, fields?: Record<string, unknown>) => {
    const extra = fields && Object.keys(fields).length > 0 ? ' ' + safeJson(fields) : '';
    write(`${new Date().toISOString()} ${level.toUpperCase()} [${scope}] ${message}${extra}`);
  };
  return { info: log('info'), warn: log('warn'), error: log('error') };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '"[unserialisable]"';
  }
}
