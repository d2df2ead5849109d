/**
 * Notices the app shows once: which are due (each source decides its own, e.g. the secret store's
 * notice about memory-only storage, secret-store.ts), and which the user has dismissed (remembered in
 * the store, so a dismissed notice stays hidden after a restart).
 */
import { z } from 'zod';
import type { Notice } from '../../../common/ipc-contract';
import type { KeyValueStore } from '../shared';

export { MEMORY_ONLY_NOTICE_ID } from '../shared';

export const DISMISSED_NOTICES_KEY = 'notices:dismissed';

const DismissedSchema = z.array(z.string());

/** Says which notice, if any, is due now. */
export type NoticeSource = () => Notice | null;

export interface NoticeBoard {
  current(): Notice[];
  /** Returns false when no such notice is showing (nothing is recorded then). */
  dismiss(id: string): boolean;
}

export function createNoticeBoard(store: KeyValueStore, sources: readonly NoticeSource[]): NoticeBoard {
  const dismissed = (): string[] => {
    const parsed = DismissedSchema.safeParse(store.get(DISMISSED_NOTICES_KEY));
    return parsed.success ? parsed.data : [];
  };

  const due = (): Notice[] => sources.flatMap((source) => source() ?? []);

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
