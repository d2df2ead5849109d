import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makePrivateFolder } from '../../../main/private-folder';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('makePrivateFolder', () => {
  const root = mkdtempSync(join(tmpdir(), 'hubdesk-private-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('makes a missing folder 0700, parents included', () => {
    const folder = join(root, 'a', 'profile');
    makePrivateFolder(folder, 'linux');
    expect(mode(folder)).toBe(0o700);
  });

  it('sets an existing 0755 folder to 0700', () => {
    const folder = join(root, 'existing');
    mkdirSync(folder, { mode: 0o755 });
    expect(mode(folder)).toBe(0o755);
    makePrivateFolder(folder, 'linux');
    expect(mode(folder)).toBe(0o700);
  });

  it('leaves modes alone on Windows, which has none', () => {
    const folder = join(root, 'windows');
    mkdirSync(folder, { mode: 0o755 });
    makePrivateFolder(folder, 'win32');
    expect(mode(folder)).toBe(0o755);
  });
});
