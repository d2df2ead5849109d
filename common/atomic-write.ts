/**
 * Writes a whole file so that a reader (or the next start after a crash) sees the old content or the
 * new, never half of it: a temporary file beside it, mode 0600, then a rename over it.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';

export function writeFileAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
