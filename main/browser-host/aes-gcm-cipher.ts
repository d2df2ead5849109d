/**
 * The browser host's SecretCipher: AES-256-GCM with a random key kept in a file readable only by the
 * user (mode 0600), next to the data it protects. It is what an OS keychain gives the Electron host,
 * minus the keychain: it keeps tokens out of plain text on disk, backups and casual reads.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import type { SecretCipher } from '../core/ports';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Version byte in front of every record, so the format can change without guessing. */
const FORMAT_V1 = 1;

export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

/** Reads the key file, creating it (0600, exclusively) when it does not exist yet. */
export function loadOrCreateKey(path: string): Buffer {
  try {
    const key = readFileSync(path);
    if (key.length !== KEY_BYTES) throw new KeyFileError(`The key file ${path} is damaged (wrong length).`);
    chmodSync(path, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(KEY_BYTES);
  writeFileSync(path, key, { mode: 0o600, flag: 'wx' });
  return key;
}

export function createAesGcmCipher(key: Buffer): SecretCipher {
  if (key.length !== KEY_BYTES) throw new KeyFileError('AES-256-GCM needs a 32-byte key.');
  return {
    backend: 'aes-256-gcm',
    async encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.of(FORMAT_V1), iv, cipher.getAuthTag(), body]).toString('base64');
    },
    async decrypt(ciphertext) {
      const record = Buffer.from(ciphertext, 'base64');
      if (record.length < 1 + IV_BYTES + TAG_BYTES || record[0] !== FORMAT_V1) throw new Error('not an encrypted record');
      const iv = record.subarray(1, 1 + IV_BYTES);
      const tag = record.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      // final() throws when the tag does not match: tampered data or another key.
      return Buffer.concat([decipher.update(record.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
