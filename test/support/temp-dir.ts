/**
 * Temporary folders for tests (profiles, static roots, key files), removed when the test file is done
 * (vitest: test/support/vitest-setup.ts) or at the latest when the process exits (Playwright, benches),
 * so a test run leaves nothing behind in the system's temp directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/** A new empty folder `<tmp>/hubdesk-<purpose>-XXXXXX`. */
export function tempDir(purpose: string): string {
  const dir = mkdtempSync(join(tmpdir(), `hubdesk-${purpose}-`));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

process.once('exit', removeTempDirs);
