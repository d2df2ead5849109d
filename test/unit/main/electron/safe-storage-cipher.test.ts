import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, resetFakeElectron } from '../../../support/fake-electron';
import { createSafeStorageCipher } from '../../../../main/electron/safe-storage-cipher';

vi.mock('electron', () => import('../../../support/fake-electron'));

describe('safeStorage cipher', () => {
  beforeEach(() => resetFakeElectron());

  it.each([
    ['darwin', 'os-keychain'],
    ['win32', 'os-keychain'],
  ] as const)('uses the OS keychain on %s', async (platform, backend) => {
    expect((await createSafeStorageCipher(platform)).backend).toBe(backend);
  });

  it.each([
    ['gnome_libsecret', 'os-keychain'],
    ['kwallet5', 'os-keychain'],
    ['kwallet6', 'os-keychain'],
    ['basic_text', 'basic_text'],
    ['unknown', 'unavailable'],
  ])('maps the Linux backend %s to %s', async (linuxBackend, backend) => {
    fakeElectron.state.linuxBackend = linuxBackend;
    expect((await createSafeStorageCipher('linux')).backend).toBe(backend);
  });

  it('is unavailable when safeStorage cannot encrypt, whatever the platform says', async () => {
    fakeElectron.state.encryptionAvailable = false;
    fakeElectron.state.linuxBackend = 'basic_text';
    const cipher = await createSafeStorageCipher('linux');
    expect(cipher.backend).toBe('unavailable');
    await expect(cipher.encrypt('secret')).rejects.toThrow(/not available/);
  });

  it('round-trips through base64 without the plaintext showing', async () => {
    const cipher = await createSafeStorageCipher('linux');
    const sealed = await cipher.encrypt('refresh-token-123');
    expect(sealed).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(sealed, 'base64').toString()).not.toContain('refresh-token-123');
    expect(await cipher.decrypt(sealed)).toBe('refresh-token-123');
  });

  it.each([
    ['not base64', '***'],
    ['empty', ''],
    ['base64 of foreign data', Buffer.from('hello').toString('base64')],
  ])('throws on %s', async (_name, data) => {
    const cipher = await createSafeStorageCipher('darwin');
    await expect(cipher.decrypt(data)).rejects.toThrow();
  });
});
