import { describe, expect, it } from 'vitest';
import { ALLOW_PLAINTEXT_KEY, createTokenVault, tokenRecordKey } from '../../../../../main/core/sign-in/token-vault';
import type { SecretCipher } from '../../../../../main/core/shared/ports';
import { createSecretStore } from '../../../../../main/core/shared/secret-store';
import { fakeCipher, memoryStore, recordingLogger, TEST_BACKEND, tokens } from '../../../../support/core-fakes';

const KEY = tokenRecordKey(TEST_BACKEND);

function vaultWith(backend: SecretCipher['backend'], store = memoryStore()) {
  const cipher = fakeCipher(backend);
  const logger = recordingLogger();
  return { vault: createTokenVault({ backend: TEST_BACKEND, secrets: createSecretStore({ cipher, store, logger }), logger }), store, cipher };
}

describe('token vault', () => {
  it('encrypts the whole token object at rest with a real cipher', async () => {
    const { vault, store } = vaultWith('aes-256-gcm');
    await vault.save(tokens(7));
    expect(vault.storage()).toBe('encrypted');
    const raw = JSON.stringify(store.data.get(KEY));
    expect(raw).not.toContain('access-7');
    expect(raw).not.toContain('refresh-7');
    const reloaded = vaultWith('aes-256-gcm', store).vault;
    expect(await reloaded.load()).toBe('loaded');
    expect(reloaded.current()).toEqual(tokens(7));
  });

  it('refuses to persist with the basic_text backend unless the user opts in', async () => {
    const { vault, store, cipher } = vaultWith('basic_text');
    await vault.save(tokens(1));
    expect(vault.storage()).toBe('memory-only');
    expect(store.data.has(KEY)).toBe(false);
    expect(cipher.encrypted).toBe(0);
    expect(vault.current()).toEqual(tokens(1));

    await vault.setAllowPlaintext(true);
    expect(vault.storage()).toBe('plaintext-opt-in');
    expect(store.data.has(KEY)).toBe(true);

    await vault.setAllowPlaintext(false);
    expect(store.data.has(KEY)).toBe(false);
    expect(store.data.get(ALLOW_PLAINTEXT_KEY)).toBe(false);
  });

  it('never writes tokens when no cipher is available', async () => {
    const { vault, store } = vaultWith('unavailable');
    await vault.save(tokens(1));
    await vault.setAllowPlaintext(true);
    expect(vault.storage()).toBe('memory-only');
    expect(store.data.has(KEY)).toBe(false);
  });

  it('discards a record that fails to decrypt', async () => {
    const store = memoryStore({ [KEY]: { v: 1, backend: 'aes-256-gcm', data: '%%%not-base64%%%' } });
    const { vault } = vaultWith('aes-256-gcm', store);
    expect(vault.hasRecord()).toBe(true);
    expect(await vault.load()).toBe('unreadable');
    expect(store.data.has(KEY)).toBe(false);
    expect(vault.current()).toBeNull();
  });

  it.each([
    ['not an object', 'tokens'],
    ['wrong version', { v: 2, backend: 'aes-256-gcm', data: 'x' }],
    ['another cipher', { v: 1, backend: 'os-keychain', data: 'eA==' }],
    ['not a token object inside', { v: 1, backend: 'aes-256-gcm', data: Buffer.from('}{').toString('base64') }],
  ])('discards a stored record that is %s', async (_label, record) => {
    const { vault, store } = vaultWith('aes-256-gcm', memoryStore({ [KEY]: record }));
    expect(await vault.load()).toBe('unreadable');
    expect(store.data.has(KEY)).toBe(false);
  });

  it('keeps records of different clouds apart', async () => {
    const store = memoryStore();
    const { vault } = vaultWith('aes-256-gcm', store);
    await vault.save(tokens(1));
    const logger = recordingLogger();
    const other = createTokenVault({
      backend: { ...TEST_BACKEND, authUrl: 'https://other.example.test' },
      secrets: createSecretStore({ cipher: fakeCipher(), store, logger }),
      logger,
    });
    expect(await other.load()).toBe('empty');
  });

  it('clear forgets memory and disk', async () => {
    const { vault, store } = vaultWith('aes-256-gcm');
    await vault.save(tokens(1));
    vault.clear();
    expect(vault.current()).toBeNull();
    expect(store.data.has(KEY)).toBe(false);
  });

  it('reads a record saved before the secret store (same key, same format)', async () => {
    // What token-vault.ts wrote on its own: { v: 1, backend, data } under tokens:<backend key>.
    const data = await fakeCipher('aes-256-gcm').encrypt(JSON.stringify(tokens(3)));
    const { vault } = vaultWith('aes-256-gcm', memoryStore({ [KEY]: { v: 1, backend: 'aes-256-gcm', data } }));
    expect(await vault.load()).toBe('loaded');
    expect(vault.current()).toEqual(tokens(3));
  });

  it('discards a saved record when the storage no longer allows it (basic_text, permission withdrawn)', async () => {
    const store = memoryStore({ [KEY]: { v: 1, backend: 'basic_text', data: 'eA==' }, [ALLOW_PLAINTEXT_KEY]: false });
    const { vault } = vaultWith('basic_text', store);
    expect(await vault.load()).toBe('unreadable');
    expect(store.data.has(KEY)).toBe(false);
  });

  it('only the latest of overlapping saves reaches the disk, and none after a sign-out', async () => {
    const { vault, store } = vaultWith('aes-256-gcm');
    const first = vault.save(tokens(1));
    const second = vault.save(tokens(2));
    await Promise.all([first, second]);
    const reloaded = vaultWith('aes-256-gcm', store).vault;
    expect(await reloaded.load()).toBe('loaded');
    expect(reloaded.current()).toEqual(tokens(2));

    const saving = vault.save(tokens(3));
    vault.clear();
    await saving;
    expect(store.data.has(KEY)).toBe(false);
  });
});
