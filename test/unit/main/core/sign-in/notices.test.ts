import { describe, expect, it } from 'vitest';
import type { Notice } from '../../../../../common/ipc-contract';
import { createNoticeBoard, DISMISSED_NOTICES_KEY } from '../../../../../main/core/sign-in/notices';
import { memoryStore } from '../../../../support/core-fakes';

const notice = (id: string): Notice => ({ id, level: 'warning', message: `notice ${id}` });

describe('notice board', () => {
  it('shows what its sources say is due, in order, and nothing for a source with nothing due', () => {
    let second: Notice | null = null;
    const board = createNoticeBoard(memoryStore(), [() => notice('a'), () => second, () => null]);
    expect(board.current().map((n) => n.id)).toEqual(['a']);
    second = notice('b');
    expect(board.current().map((n) => n.id)).toEqual(['a', 'b']);
  });

  it('remembers a dismissal in the store, and refuses to dismiss a notice that is not showing', () => {
    const store = memoryStore();
    let due = true;
    const board = createNoticeBoard(store, [() => (due ? notice('a') : null)]);
    expect(board.dismiss('b')).toBe(false);
    expect(store.data.has(DISMISSED_NOTICES_KEY)).toBe(false);
    expect(board.dismiss('a')).toBe(true);
    expect(board.dismiss('a')).toBe(true);
    expect(store.data.get(DISMISSED_NOTICES_KEY)).toEqual(['a']);
    expect(board.current()).toEqual([]);
    due = false;
    expect(board.dismiss('a')).toBe(false);
  });

  it('ignores a malformed dismissal record', () => {
    const board = createNoticeBoard(memoryStore({ [DISMISSED_NOTICES_KEY]: 'a' }), [() => notice('a')]);
    expect(board.current().map((n) => n.id)).toEqual(['a']);
  });
});
