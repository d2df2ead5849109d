import { describe, expect, it } from 'vitest';
import type { SessionView } from '../../../../../common/ipc-contract';
import { createNoticeBoard } from '../../../../../main/core/sign-in/notices';
import type { SecretStorage } from '../../../../../main/core/shared/secret-store';
import { createSessionState } from '../../../../../main/core/sign-in/session-state';
import { memoryStore, recordingLogger, TEST_BACKEND } from '../../../../support/core-fakes';

function setup() {
  let storage: SecretStorage = 'encrypted';
  const logger = recordingLogger();
  const state = createSessionState({
    backend: TEST_BACKEND,
    notices: createNoticeBoard(memoryStore(), []),
    tokenStorage: () => storage,
    allowUnencryptedRoutes: () => false,
    logger,
    initialAuth: { status: 'signed-out' },
  });
  return { state, logger, setStorage: (next: SecretStorage) => void (storage = next) };
}

describe('session state', () => {
  it('emits session.changed only when the view really changed', () => {
    const { state, setStorage } = setup();
    const views: SessionView[] = [];
    state.subscribe((view) => views.push(view));
    state.refresh();
    state.setAuth({ status: 'signed-out' });
    expect(views).toEqual([]);
    setStorage('memory-only');
    state.refresh();
    state.setAuth({ status: 'signing-in', authorizationOrigin: 'https://cloud.example.test' });
    expect(views.map((view) => [view.tokenStorage, view.auth.status])).toEqual([
      ['memory-only', 'signed-out'],
      ['memory-only', 'signing-in'],
    ]);
  });

  it('a failing listener is logged and the others still hear; unsubscribe and dispose stop them', () => {
    const { state, logger } = setup();
    const heard: string[] = [];
    state.subscribe(() => {
      throw new Error('window closed');
    });
    const unsubscribe = state.subscribe((view) => heard.push(view.auth.status));
    state.setAuth({ status: 'restoring' });
    expect(heard).toEqual(['restoring']);
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'error' })]);
    unsubscribe();
    state.setAuth({ status: 'signed-out' });
    expect(heard).toEqual(['restoring']);
    state.subscribe((view) => heard.push(view.auth.status));
    state.dispose();
    state.setAuth({ status: 'restoring' });
    expect(heard).toEqual(['restoring']);
  });
});
