/**
 * The browser host's SecretCipher: AES-256-GCM with a random key kept in a file readable only by the
 * user (mode 0600), next to the data it protects. It is what an OS keychain gives the Electron host,
 * minus the keychain: it keeps tokens out of plain text on disk, backups and casual reads.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { AES_KEY_BYTES, openBytes, sealBytes } from '../core/shared';
import type { SecretCipher } from '../core/shared';

const KEY_BYTES = AES_KEY_BYTES;

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
    encrypt: async (plaintext) => sealBytes(key, Buffer.from(plaintext, 'utf8')).toString('base64'),
    // Throws when the tag does not match: tampered data or another key.
    decrypt: async (ciphertext) => openBytes(key, Buffer.from(ciphertext, 'base64')).toString('utf8'),
  };
}
