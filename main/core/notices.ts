/**
 * Notices the app shows once: which are due, and which the user has dismissed (remembered in the
 * store, so a dismissed notice stays hidden after a restart).
 */
import { z } from 'zod';
import type { Notice } from '../../common/ipc-contract';
import type { KeyValueStore, SecretCipher } from './ports';
import type { TokenStorage } from './token-vault';

export const DISMISSED_NOTICES_KEY = 'notices:dismissed';
export const MEMORY_ONLY_NOTICE_ID = 'vault-memory-only';

const DismissedSchema = z.array(z.string());

export interface NoticeBoard {
  current(): Notice[];
  /** Returns false when no such notice is showing (nothing is recorded then). */
  dismiss(id: string): boolean;
}

export function createNoticeBoard(store: KeyValueStore, cipherBackend: SecretCipher['backend'], tokenStorage: () => TokenStorage): NoticeBoard {
  const dismissed = (): string[] => {
    const parsed = DismissedSchema.safeParse(store.get(DISMISSED_NOTICES_KEY));
    return parsed.success ? parsed.data : [];
  };

  const due = (): Notice[] => (tokenStorage() === 'memory-only' ? [memoryOnlyNotice(cipherBackend)] : []);

  return {
    current: () => {
      const hidden = new Set(dismissed());
      return due().filter((notice) => !hidden.has(notice.id));
    },
    dismiss(id) {
      if (!due().some((notice) => notice.id === id)) return false;
      const ids = dismissed();
      if (!ids.includes(id)) store.set(DISMISSED_NOTICES_KEY, [...ids, id]);
      return true;
    },
  };
}

function memoryOnlyNotice(cipherBackend: SecretCipher['backend']): Notice {
  const base = 'Your sign-in is kept only until Hubdesk quits, because this system offers no secure storage for it.';
  // With no cipher at all there is nothing weaker to opt in to, so the action is offered only for basic_text.
  if (cipherBackend === 'basic_text') {
    return {
      id: MEMORY_ONLY_NOTICE_ID,
      level: 'warning',
      message: `${base} You can allow Hubdesk to save it with weaker, obfuscated storage instead.`,
      action: 'allow-plaintext-storage',
    };
  }
  return { id: MEMORY_ONLY_NOTICE_ID, level: 'warning', message: base };
}
