/**
 * SecretCipher over Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet). On Linux safeStorage
 * may fall back to `basic_text`, a hard-coded key: that is reported as such, so the vault keeps tokens
 * in memory unless the user opts in (docs/decisions.md, "Token storage").
 */
import { safeStorage } from 'electron';
import type { SecretCipher } from '../core/shared';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Call after the app is ready: before that safeStorage cannot tell which backend it has. */
export async function createSafeStorageCipher(platform: NodeJS.Platform = process.platform): Promise<SecretCipher> {
  const backend = await detectBackend(platform);
  return {
    backend,
    async encrypt(plaintext) {
      if (backend === 'unavailable') throw new Error('safeStorage: encryption is not available');
      return (await safeStorage.encryptStringAsync(plaintext)).toString('base64');
    },
    async decrypt(ciphertext) {
      if (backend === 'unavailable') throw new Error('safeStorage: encryption is not available');
      if (ciphertext === '' || !BASE64.test(ciphertext)) throw new Error('safeStorage: the stored data is not base64');
      // `shouldReEncrypt` is not acted on: the vault writes the record again at the next token refresh.
      const { result } = await safeStorage.decryptStringAsync(Buffer.from(ciphertext, 'base64'));
      return result;
    },
  };
}

async function detectBackend(platform: NodeJS.Platform): Promise<SecretCipher['backend']> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return 'unavailable';
  if (platform !== 'linux') return 'os-keychain';
  switch (safeStorage.getSelectedStorageBackend()) {
    case 'basic_text':
      return 'basic_text';
    case 'unknown': // asked before ready, or no usable store: never pretend to encrypt
      return 'unavailable';
    case 'gnome_libsecret':
    case 'kwallet':
    case 'kwallet5':
    case 'kwallet6':
      return 'os-keychain';
  }
}
