/** The last run's port and resume key, read back as untrusted (main/browser-host/last-run.ts). */
import { describe, expect, it } from 'vitest';
import { randomToken } from '../../../../common/bridge-resume';
import { readLastRun, saveLastRun } from '../../../../main/browser-host/last-run';
import type { KeyValueStore } from '../../../../main/core/shared/ports';

function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: (key) => data.get(key), set: (key, value) => void data.set(key, value), delete: (key) => void data.delete(key) };
}

describe('the browser host’s last run', () => {
  it('reads back what was saved', () => {
    const store = memoryStore();
    expect(readLastRun(store)).toBeUndefined();
    const run = { port: 41_234, resumeKey: randomToken() };
    saveLastRun(store, run);
    expect(readLastRun(store)).toEqual(run);
  });

  it('takes a malformed record for no last run', () => {
    const store = memoryStore();
    for (const record of [
      'x',
      { port: 0, resumeKey: randomToken() },
      { port: 70_000, resumeKey: randomToken() },
      { port: 8080, resumeKey: 'short' },
      { port: 8080 },
    ]) {
      store.data.set('lastRun', record);
      expect(readLastRun(store)).toBeUndefined();
    }
  });
});
