import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJsonFileStore } from '../../../../main/browser-host/json-file-store';
import { recordingLogger } from '../../../support/core-fakes';
import { tempDir } from '../../../support/temp-dir';

describe('JSON file store', () => {
  it('persists values across instances in a 0600 file', () => {
    const dir = tempDir('store');
    const path = join(dir, 'settings.json');
    const store = createJsonFileStore(path, recordingLogger());
    store.set('a', { b: [1, 2] });
    store.set('c', 'd');
    store.delete('c');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = createJsonFileStore(path, recordingLogger());
    expect(again.get('a')).toEqual({ b: [1, 2] });
    expect(again.get('c')).toBeUndefined();
    expect(again.get('__proto__')).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['settings.json']); // no temporary file left behind
  });

  it('keeps an unreadable file aside and starts empty', () => {
    const dir = tempDir('store');
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{not json');
    const logger = recordingLogger();
    const store = createJsonFileStore(path, logger);
    expect(store.get('anything')).toBeUndefined();
    const aside = readdirSync(dir).find((name) => name.startsWith('settings.json.unreadable-'));
    expect(aside && readFileSync(join(dir, aside), 'utf8')).toBe('{not json');
    store.set('x', 1);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ x: 1 });
  });
});
