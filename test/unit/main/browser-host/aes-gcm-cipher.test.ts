import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAesGcmCipher, KeyFileError, loadOrCreateKey } from '../../../../main/browser-host/aes-gcm-cipher';
import { tempDir } from '../../../support/temp-dir';

const folder = () => tempDir('cipher');

describe('AES-256-GCM cipher with a key file', () => {
  it('creates a 32-byte key readable only by the user, and reads the same key back', () => {
    const path = join(folder(), 'token-key');
    const key = loadOrCreateKey(path);
    expect(key).toHaveLength(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKey(path).equals(key)).toBe(true);
  });

  it('refuses a damaged key file instead of replacing it', () => {
    const path = join(folder(), 'token-key');
    writeFileSync(path, 'short');
    expect(() => loadOrCreateKey(path)).toThrow(KeyFileError);
    expect(readFileSync(path, 'utf8')).toBe('short');
  });

  it('round-trips text and never leaves the plaintext in the record', async () => {
    const cipher = createAesGcmCipher(loadOrCreateKey(join(folder(), 'k')));
    const secret = '{"access_token":"at-123","refresh_token":"rt-456"}';
    const record = await cipher.encrypt(secret);
    expect(Buffer.from(record, 'base64').toString('latin1')).not.toContain('at-123');
    expect(await cipher.decrypt(record)).toBe(secret);
    expect(await cipher.encrypt(secret)).not.toBe(record); // fresh IV each time
  });

  it('rejects tampered records, other keys and garbage', async () => {
    const cipher = createAesGcmCipher(loadOrCreateKey(join(folder(), 'k')));
    const other = createAesGcmCipher(loadOrCreateKey(join(folder(), 'k')));
    const record = Buffer.from(await cipher.encrypt('hello'), 'base64');
    record[record.length - 1]! ^= 1;
    await expect(cipher.decrypt(record.toString('base64'))).rejects.toThrow();
    await expect(other.decrypt(await cipher.encrypt('hello'))).rejects.toThrow();
    await expect(cipher.decrypt('bm90IGEgcmVjb3Jk')).rejects.toThrow();
  });
});
