/**
 * The fetch and the WebSocket opener the hosts give the core: Node's own when no extra CA is
 * configured, otherwise ones that trust the system roots plus that CA (e.g. the one that issued a
 * hub's LAN certificate), so `https://` calls and `wss://` realtime channels trust the same peers.
 * `createHubNamingTransport` gives the same pair for an address heard over mDNS, where the
 * certificate must name the hub rather than the address (docs/security.md, "Route trust").
 * Only hosts import this; the core just receives them.
 */
import type { PeerCertificate } from 'node:tls';
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { hubCertificateName } from '../common/hub-identity';
import type { HubTransport } from './core/hubs';
import { type OpenWebSocket, plainWebSocket } from './core/shared';

/** Everything the core needs to reach clouds and hubs, trusting the system roots plus `trustedCaPem`: spread into CoreDeps. */
export function createHostTransports(trustedCaPem?: string) {
  return { fetch: createTrustedFetch(trustedCaPem), openWebSocket: createTrustedWebSocket(trustedCaPem), namingHub: createHubNamingTransport(trustedCaPem) };
}

export function createTrustedFetch(trustedCaPem?: string): typeof globalThis.fetch {
  if (trustedCaPem === undefined) return globalThis.fetch;
  return fetchThrough(new Agent({ connect: { ca: trustedRoots(trustedCaPem) } }));
}

export function createTrustedWebSocket(trustedCaPem?: string): OpenWebSocket {
  if (trustedCaPem === undefined) return plainWebSocket;
  const ca = trustedRoots(trustedCaPem);
  return (url, options) => plainWebSocket(url, { ...options, ca });
}

/**
 * Per hub id, a transport whose TLS connections succeed only when the chain ends at a trusted root
 * (the system ones, plus `trustedCaPem`) and the certificate names that hub. One agent per hub, made
 * on first use; the user's hubs are few.
 */
export function createHubNamingTransport(trustedCaPem?: string): (hubId: string) => HubTransport {
  const ca = trustedCaPem === undefined ? undefined : trustedRoots(trustedCaPem);
  const transports = new Map<string, HubTransport>();
  return (hubId) => {
    let transport = transports.get(hubId);
    if (!transport) {
      // undici types this option after its own wrapper; Node calls it as tls.connect does: an Error refuses, undefined accepts.
      const checkServerIdentity = ((_host: string, certificate: PeerCertificate) => (namesHub(certificate, hubId) ? undefined : notNamed(hubId))) as never;
      transport = {
        fetch: fetchThrough(new Agent({ connect: { ...(ca && { ca }), checkServerIdentity } })),
        openWebSocket: (url, options) => plainWebSocket(url, { ...options, ...(ca && { ca }), checkServerIdentity }),
      };
      transports.set(hubId, transport);
    }
    return transport;
  };
}

/** Whether the certificate carries the hub's name among its subject alternative names. */
export function namesHub(certificate: Pick<PeerCertificate, 'subjectaltname'>, hubId: string): boolean {
  const wanted = `URI:${hubCertificateName(hubId)}`;
  return (certificate.subjectaltname ?? '').split(', ').some((name) => name === wanted);
}

/** The error TLS reports (its code says why the route failed, http.ts). */
function notNamed(hubId: string): Error {
  return Object.assign(new Error(`the certificate does not name hub ${hubId}`), { code: 'ERR_HUB_NOT_NAMED' });
}

function trustedRoots(trustedCaPem: string): string[] {
  return [...rootCertificates, trustedCaPem];
}

function fetchThrough(dispatcher: Agent): typeof globalThis.fetch {
  // undici's Request/Response types are its own, structurally the same as the global ones Node uses.
  return ((input, init) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher })) as typeof globalThis.fetch;
}
