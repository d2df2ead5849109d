/**
 * The fetch the hosts give the core: Node's own when no extra CA is configured, otherwise undici's
 * fetch with a dispatcher that trusts the system roots plus that CA (e.g. the one that issued a hub's
 * LAN certificate). Only hosts import this; the core just receives a fetch.
 */
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';

export function createTrustedFetch(trustedCaPem?: string): typeof globalThis.fetch {
  if (trustedCaPem === undefined) return globalThis.fetch;
  const dispatcher = new Agent({ connect: { ca: [...rootCertificates, trustedCaPem] } });
  // undici's Request/Response types are its own, structurally the same as the global ones Node uses.
  return ((input, init) => undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher })) as typeof globalThis.fetch;
}
