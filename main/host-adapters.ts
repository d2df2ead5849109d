/**
 * What both hosts give the core alike, built with one call: the backend (configured, or the embedded
 * demo stack), the logger, the fetch and WebSocket opener that trust the configured CA (and the pair
 * for addresses heard over mDNS), and the mDNS browser. A host adds only what is its own: the cipher,
 * the settings store and how it opens the system browser.
 */
import { type BackendHandle, resolveBackend } from './backend';
import type { CoreDeps } from './core/host';
import type { Logger } from './core/shared';
import { createBonjourBrowser } from './mdns/bonjour-browser';
import { createHostTransports } from './trusted-fetch';

export type SharedCoreDeps = Pick<CoreDeps, 'backend' | 'logger' | 'fetch' | 'openWebSocket' | 'namingHub' | 'mdns'>;

export interface HostAdapters {
  deps: SharedCoreDeps;
  /** Stops the embedded stack, if one was started. */
  close: BackendHandle['close'];
}

export async function createHostAdapters(env: NodeJS.ProcessEnv, redirectUri: string, logger: Logger): Promise<HostAdapters> {
  const backend = await resolveBackend(env, redirectUri, logger);
  return {
    deps: { backend: backend.config, logger, ...createHostTransports(backend.config.trustedCaPem), mdns: createBonjourBrowser(logger) },
    close: backend.close,
  };
}
