/**
 * An app core on a reference stack started by a test, signed in as the stack's demo user through the
 * real consent pages: the fakes every integration test uses for the host's ports, and the stack's
 * client (full or read-only). `deps` adds or replaces ports (fetch, WebSocket, mDNS, store…).
 */
import { expect } from 'vitest';
import { createHubdeskCore } from '../../main/core/host/create-hubdesk-core';
import type { CoreDeps, HubdeskCore } from '../../main/core/host/hubdesk-core';
import type { StackInfo } from '../../services/stack';
import { consent } from './consent-driver';
import { fakeCipher, memoryStore, recordingLogger } from './core-fakes';
import { stackBackend } from './stack-backend';

export async function signedInStackCore(info: StackInfo, deps: Partial<CoreDeps> = {}, client: 'full' | 'readonly' = 'full'): Promise<HubdeskCore> {
  const opened: string[] = [];
  const core = await createHubdeskCore({
    backend: stackBackend(info, client),
    cipher: fakeCipher(),
    store: memoryStore(),
    openExternal: async (url) => void opened.push(url),
    logger: recordingLogger(),
    ...deps,
  });
  try {
    await core.handlers['auth.signIn']();
    const redirect = await consent(opened.at(-1)!, info.user, 'Allow');
    expect(await core.handleOAuthCallback(Object.fromEntries(redirect.searchParams))).toBe('accepted');
  } catch (error) {
    await core.dispose();
    throw error;
  }
  return core;
}
