/**
 * The hosts' logger: one JSON-ish line per record on stderr, so stdout stays free for the machine-read
 * lines of the browser host. It redacts nothing by itself: callers never pass secrets (see docs/security.md).
 */
import type { Logger } from './core/ports';

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
