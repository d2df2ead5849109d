/**
 * The fetch and the WebSocket opener the hosts give the core: Node's own when no extra CA is
 * configured, otherwise ones that trust the system roots plus that CA (e.g. the one that issued a
 * hub's LAN certificate), so `https://` calls and `wss://` realtime channels trust the same peers.
 * Only hosts import this; the core just receives them.
 */
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { type OpenWebSocket, plainWebSocket } from './core/live-socket';

export function createTrustedFetch(trustedCaPem?: string): typeof globalThis.fetch {
  if (trustedCaPem === undefined) return globalThis.fetch;
  const dispatcher = new Agent({ connect: { ca: [...rootCertificates, trustedCaPem] } });
  // undici's Request/Response types are its own, structurally the same as the global ones Node uses.
  return ((input, init) => undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher })) as typeof globalThis.fetch;
}

export function createTrustedWebSocket(trustedCaPem?: string): OpenWebSocket {
  if (trustedCaPem === undefined) return plainWebSocket;
  const ca = [...rootCertificates, trustedCaPem];
  return (url, options) => plainWebSocket(url, { ...options, ca });
}
