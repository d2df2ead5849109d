import { describe, expect, it } from 'vitest';
import { createNoticeBoard } from '../../../../../main/core/sign-in/notices';
import type { SecretCipher } from '../../../../../main/core/shared/ports';
import { ALLOW_PLAINTEXT_KEY, createSecretStore, MEMORY_ONLY_NOTICE_ID } from '../../../../../main/core/shared/secret-store';
import { fakeCipher, memoryStore, recordingLogger } from '../../../../support/core-fakes';

const KEY = 'tokens:0123456789abcdef';
const SECRET = 'a-secret-that-must-not-leak';

/** `store`: the settings of an earlier run, to start again on them (a restart). */
function setup(backend: SecretCipher['backend'] = 'aes-256-gcm', store = memoryStore()) {
  const cipher = fakeCipher(backend);
  const logger = recordingLogger();
  return { secrets: createSecretStore({ cipher, store, logger }), store, cipher, logger };
}

const onDisk = (store: ReturnType<typeof memoryStore>) => JSON.stringify([...store.data]);

describe('secret store', () => {
  it('encrypts with a cipher that really encrypts, in the vault record format, and reads it after a restart', async () => {
    for (const backend of ['aes-256-gcm', 'os-keychain'] as const) {
      const { secrets, store } = setup(backend);
      expect(secrets.storage()).toBe('encrypted');
      await secrets.set(KEY, SECRET);
      expect(store.data.get(KEY)).toEqual({ v: 1, backend, data: expect.any(String) });
      expect(onDisk(store)).not.toContain(SECRET);
      const restarted = setup(backend, store).secrets;
      expect(restarted.has(KEY)).toBe(true);
      expect(await restarted.get(KEY)).toEqual({ status: 'found', value: SECRET });
    }
  });

  it('keeps secrets in memory only with basic_text (no permission) or no cipher at all', async () => {
    for (const backend of ['basic_text', 'unavailable'] as const) {
      const { secrets, store, cipher } = setup(backend);
      expect(secrets.storage()).toBe('memory-only');
      await secrets.set(KEY, SECRET);
      expect(cipher.encrypted).toBe(0);
      expect(store.data.has(KEY)).toBe(false);
      expect(await secrets.get(KEY)).toEqual({ status: 'found', value: SECRET }); // for this run
      expect(await setup(backend, store).secrets.get(KEY)).toEqual({ status: 'missing' }); // gone after a restart
    }
  });

  it('with basic_text, writes once the user allows it, and takes everything off the disk when withdrawn', async () => {
    const { secrets, store } = setup('basic_text');
    await secrets.set(KEY, SECRET);
    await secrets.set('other', 'second-secret');
    await secrets.setAllowPlaintext(true);
    expect(secrets.storage()).toBe('plaintext-opt-in');
    expect(store.data.get(ALLOW_PLAINTEXT_KEY)).toBe(true);
    expect(store.data.get(KEY)).toMatchObject({ v: 1, backend: 'basic_text' });
    expect(store.data.has('other')).toBe(true);
    expect(await setup('basic_text', store).secrets.get(KEY)).toEqual({ status: 'found', value: SECRET });

    await secrets.setAllowPlaintext(false);
    expect(secrets.storage()).toBe('memory-only');
    expect(store.data.has(KEY)).toBe(false);
    expect(store.data.has('other')).toBe(false);
    expect(await secrets.get(KEY)).toEqual({ status: 'found', value: SECRET }); // still held for this run
  });

  it('without a cipher, the permission changes nothing', async () => {
    const { secrets, store } = setup('unavailable');
    await secrets.set(KEY, SECRET);
    await secrets.setAllowPlaintext(true);
    expect(secrets.storage()).toBe('memory-only');
    expect(store.data.has(KEY)).toBe(false);
  });

  it.each([
    ['malformed', 'not a record'],
    ['of another version', { v: 2, backend: 'aes-256-gcm', data: 'eA==' }],
    ['of another cipher', { v: 1, backend: 'os-keychain', data: 'eA==' }],
    ['undecryptable', { v: 1, backend: 'aes-256-gcm', data: '%%%not-base64%%%' }],
  ])('a record that is %s reads as unreadable, is deleted and logged without the value', async (_label, record) => {
    const { secrets, store, logger } = setup('aes-256-gcm', memoryStore({ [KEY]: record }));
    expect(secrets.has(KEY)).toBe(true);
    expect(await secrets.get(KEY)).toEqual({ status: 'unreadable' });
    expect(store.data.has(KEY)).toBe(false);
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ key: KEY }) })]);
    expect(await secrets.get(KEY)).toEqual({ status: 'missing' });
  });

  it('a record saved with a permission since withdrawn is unreadable and deleted', async () => {
    const { secrets, store } = setup('basic_text', memoryStore({ [KEY]: { v: 1, backend: 'basic_text', data: 'eA==' } }));
    expect(await secrets.get(KEY)).toEqual({ status: 'unreadable' });
    expect(store.data.has(KEY)).toBe(false);
  });

  it('when encrypting fails the secret stays in memory, and the failure is logged without the value', async () => {
    const { secrets, store, cipher, logger } = setup();
    cipher.encrypt = async () => {
      throw new Error(`cannot encrypt ${SECRET}`);
    };
    await expect(secrets.set(KEY, SECRET)).resolves.toBeUndefined();
    expect(store.data.has(KEY)).toBe(false);
    expect(await secrets.get(KEY)).toEqual({ status: 'found', value: SECRET });
    expect(logger.lines.map((line) => line.level)).toEqual(['error']);
    expect(JSON.stringify(logger.lines)).not.toContain(SECRET);
  });

  it('only the newest of overlapping writes reaches the disk; a delete wins over a write still encrypting', async () => {
    const { secrets, store } = setup();
    await Promise.all([secrets.set(KEY, 'first'), secrets.set(KEY, 'second')]);
    expect(await setup('aes-256-gcm', store).secrets.get(KEY)).toEqual({ status: 'found', value: 'second' });

    const writing = secrets.set(KEY, 'third');
    secrets.delete(KEY);
    await writing;
    expect(store.data.has(KEY)).toBe(false);
    expect(await secrets.get(KEY)).toEqual({ status: 'missing' });
  });

  it('adopts a value sealed in an older format and reads it like its own', async () => {
    const sealed = { backend: 'aes-256-gcm', data: await fakeCipher().encrypt(SECRET) };
    const { secrets, store } = setup();
    secrets.adopt(KEY, sealed);
    expect(store.data.get(KEY)).toEqual({ v: 1, ...sealed });
    expect(await secrets.get(KEY)).toEqual({ status: 'found', value: SECRET });
  });
});

describe('the memory-only notice', () => {
  it('is due only while secrets are kept in memory only, with the opt-in action only for basic_text', async () => {
    expect(setup('aes-256-gcm').secrets.notice()).toBeNull();
    expect(setup('unavailable').secrets.notice()).toEqual({ id: MEMORY_ONLY_NOTICE_ID, level: 'warning', message: expect.any(String) });
    const { secrets } = setup('basic_text');
    expect(secrets.notice()).toMatchObject({ id: MEMORY_ONLY_NOTICE_ID, action: 'allow-plaintext-storage' });
    await secrets.setAllowPlaintext(true);
    expect(secrets.notice()).toBeNull();
  });

  it('is shown once however many kinds of secret are kept in memory, and stays dismissed after a restart', async () => {
    const { secrets, store } = setup('basic_text');
    await secrets.set('tokens:a', SECRET);
    await secrets.set('webhooks:secret:wh-1', SECRET);
    const board = createNoticeBoard(store, [secrets.notice]);
    expect(board.current().map((notice) => notice.id)).toEqual([MEMORY_ONLY_NOTICE_ID]);
    expect(board.dismiss('no-such-notice')).toBe(false);
    expect(board.dismiss(MEMORY_ONLY_NOTICE_ID)).toBe(true);
    expect(board.current()).toEqual([]);
    expect(createNoticeBoard(store, [setup('basic_text', store).secrets.notice]).current()).toEqual([]);
  });
});
