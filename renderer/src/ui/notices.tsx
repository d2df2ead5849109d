/** Notices from main (e.g. tokens kept only in memory), each dismissible, some with an action. */
import { useId } from 'react';
import { useStore } from 'zustand';
import type { Notice } from '../../../common/ipc-contract';
import { useStores } from './stores-context';

export function Notices() {
  const { session } = useStores();
  const notices = useStore(session, (s) => s.session?.notices);
  if (!notices || notices.length === 0) return null;
  return (
    <ul className="notices" aria-label="Notices">
      {notices.map((notice) => (
        <NoticeItem key={notice.id} notice={notice} />
      ))}
    </ul>
  );
}

function NoticeItem({ notice }: { notice: Notice }) {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  const messageId = useId();
  return (
    <li className={`notice notice-${notice.level}`}>
      <p id={messageId}>{notice.message}</p>
      <div className="notice-actions">
        {notice.action === 'allow-plaintext-storage' && (
          <button
            type="button"
            aria-describedby={messageId}
            disabled={pending === 'allowPlaintextStorage'}
            onClick={() => void session.getState().allowPlaintextStorage()}
          >
            Keep me signed in anyway
          </button>
        )}
        <button
          type="button"
          aria-describedby={messageId}
          disabled={pending === 'dismissNotice'}
          onClick={() => void session.getState().dismissNotice(notice.id)}
        >
          Dismiss
        </button>
      </div>
    </li>
  );
}
