/**
 * The HTTP calls to one hub (docs/interface.md §4.5, §4.6, the ping of A.1, and the control calls of
 * common/hub-control.ts). It only speaks the protocol; what a 401 or a silent address means is
 * decided by hub-sessions.
 */
import { z } from 'zod';
import {
  type CapabilityEventData,
  CapabilityEventDataSchema,
  type FlowMap,
  FlowMapSchema,
  type FlowTriggerResult,
  FlowTriggerResultSchema,
  type SessionInfo,
  SessionInfoSchema,
  type SetCapabilityBody,
} from '../../../common/hub-control';
import { type InsightsEntries, InsightsEntriesSchema, type InsightsLogMap, InsightsLogMapSchema, type InsightsResolution } from '../../../common/insights';
import { PING_NONCE_PARAM, type PingProof, PingProofSchema } from '../../../common/hub-identity';
import { type DeviceMap, DeviceMapSchema, JsonStringTokenSchema } from '../../../common/wire';
import { type FetchFn, type HttpOutcome, type HttpRequest, joinUrl, requestJson } from '../shared';
import type { OpenWebSocket } from '../shared';

export const HUB_PING_TIMEOUT_MS = 2_000;
export const HUB_TIMEOUT_MS = 10_000;

/**
 * Where a hub call goes. An address from the user's record is checked the usual way (TLS against its
 * host name); one heard over mDNS names the hub its TLS certificate must name (`namedHub`), because the
 * address itself comes from whoever answered on the LAN (docs/security.md, "Route trust").
 */
export interface HubAddress {
  baseUrl: string;
  namedHub?: string;
}

/** What a ping found at an address, before anyone checked the hub's proof (hub-identity.ts does). */
export type PingAnswer =
  | { kind: 'proof'; proof: PingProof } // the hub's id with its signature over the nonce
  | { kind: 'id'; id: string } // a bare id: a hub without an identity key, or a device pretending
  | { kind: 'failed'; detail: string }; // no usable answer: refused, untrusted certificate, HTTP error, not a hub

/** What a ping proved about an address; route selection turns it into a per-route outcome for the user. */
export type PingOutcome =
  | { kind: 'hub' } // answered as the hub with the asked id, and proved it where proof is required
  | { kind: 'wrong-hub' } // answered, but as another hub: the address now belongs to someone else
  | { kind: 'failed'; detail: string }; // no usable answer, or an answer that did not prove who it is (why, for the user)

export interface HubClient {
  ping(at: HubAddress, hubId: string, nonce: string, signal?: AbortSignal): Promise<PingAnswer>;
  login(at: HubAddress, delegationToken: string): Promise<HttpOutcome<string>>;
  /** Ends the session on the hub (sign-out); a hub without this endpoint lets it expire on its own. */
  logout(at: HubAddress, sessionToken: string): Promise<HttpOutcome<unknown>>;
  devices(at: HubAddress, sessionToken: string): Promise<HttpOutcome<DeviceMap>>;
  setCapability(
    at: HubAddress,
    sessionToken: string,
    deviceId: string,
    capabilityId: string,
    body: SetCapabilityBody,
  ): Promise<HttpOutcome<CapabilityEventData>>;
  flows(at: HubAddress, sessionToken: string): Promise<HttpOutcome<FlowMap>>;
  triggerFlow(at: HubAddress, sessionToken: string, flowId: string): Promise<HttpOutcome<FlowTriggerResult>>;
  /** The logs the hub keeps (common/insights.ts); a hub without insights answers 404. */
  insightsLogs(at: HubAddress, sessionToken: string): Promise<HttpOutcome<InsightsLogMap>>;
  /** One log's entries over a resolution; `uri` is the log's owner, `id` its full id. */
  insightsEntries(at: HubAddress, sessionToken: string, uri: string, id: string, resolution: InsightsResolution): Promise<HttpOutcome<InsightsEntries>>;
  /** What the session may do; a hub without this endpoint answers 404. */
  sessionInfo(at: HubAddress, sessionToken: string): Promise<HttpOutcome<SessionInfo>>;
}

/** How the core reaches hubs: a fetch and a WebSocket opener (the host's, trusting its CAs). */
export interface HubTransport {
  fetch: FetchFn;
  openWebSocket: OpenWebSocket;
}

/**
 * The transport for an address: the host's own for the record's addresses, and for an address heard
 * over mDNS the host's transport that accepts only a certificate naming that hub. A host that cannot
 * check that (`namingHub` absent) gets a transport that refuses such addresses.
 */
export function transportFor(standard: HubTransport, namingHub: ((hubId: string) => HubTransport) | undefined, namedHub: string | undefined): HubTransport {
  if (namedHub === undefined) return standard;
  return namingHub?.(namedHub) ?? CANNOT_CHECK_HUB_NAMES;
}

const CANNOT_CHECK_HUB_NAMES: HubTransport = {
  fetch: () => Promise.reject(new Error('this host cannot check that a certificate names the hub')),
  openWebSocket: () => {
    throw new Error('this host cannot check that a certificate names the hub');
  },
};

const segment = encodeURIComponent;

/** A proof (current hubs) or a bare id (hubs without an identity key, and the unauthenticated ping of before). */
const PingAnswerSchema = z.union([JsonStringTokenSchema, PingProofSchema]);

export function createHubClient(transport: (at: HubAddress) => HubTransport, lifetime: AbortSignal): HubClient {
  /** A call with the session token; ids in paths are percent-encoded so an odd id cannot change the path. */
  const authorized = <T>(method: HttpRequest['method'], at: HubAddress, sessionToken: string, path: string, schema: z.ZodType<T>, body?: unknown) =>
    requestJson(
      transport(at).fetch,
      {
        method,
        url: joinUrl(at.baseUrl, path),
        headers: { authorization: `Bearer ${sessionToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: HUB_TIMEOUT_MS,
        signal: lifetime,
      },
      schema,
    );

  return {
    async ping(at, hubId, nonce, signal) {
      const outcome = await requestJson(
        transport(at).fetch,
        {
          method: 'GET',
          url: joinUrl(at.baseUrl, `/api/manager/system/ping?${new URLSearchParams({ id: hubId, [PING_NONCE_PARAM]: nonce }).toString()}`),
          timeoutMs: HUB_PING_TIMEOUT_MS,
          signal: signal ? AbortSignal.any([signal, lifetime]) : lifetime,
        },
        PingAnswerSchema,
      );
      switch (outcome.kind) {
        case 'ok':
          return typeof outcome.value === 'string' ? { kind: 'id', id: outcome.value } : { kind: 'proof', proof: outcome.value };
        case 'status':
          return { kind: 'failed', detail: `HTTP ${outcome.status}` };
        case 'network':
        case 'malformed':
          return { kind: 'failed', detail: outcome.detail };
      }
    },
    login: (at, delegationToken) =>
      requestJson(
        transport(at).fetch,
        {
          method: 'POST',
          url: joinUrl(at.baseUrl, '/api/manager/users/login'),
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: delegationToken }),
          timeoutMs: HUB_TIMEOUT_MS,
          signal: lifetime,
        },
        JsonStringTokenSchema,
      ),
    logout: (at, token) => authorized('POST', at, token, '/api/manager/users/logout', z.unknown()),
    devices: (at, token) => authorized('GET', at, token, '/api/manager/devices/device', DeviceMapSchema),
    setCapability: (at, token, deviceId, capabilityId, body) =>
      authorized('PUT', at, token, `/api/manager/devices/device/${segment(deviceId)}/capability/${segment(capabilityId)}`, CapabilityEventDataSchema, body),
    flows: (at, token) => authorized('GET', at, token, '/api/manager/flow/flow', FlowMapSchema),
    triggerFlow: (at, token, flowId) => authorized('POST', at, token, `/api/manager/flow/flow/${segment(flowId)}/trigger`, FlowTriggerResultSchema, {}),
    insightsLogs: (at, token) => authorized('GET', at, token, '/api/manager/insights/log', InsightsLogMapSchema),
    insightsEntries: (at, token, uri, id, resolution) =>
      authorized(
        'GET',
        at,
        token,
        `/api/manager/insights/log/${segment(uri)}/${segment(id)}/entry?${new URLSearchParams({ resolution }).toString()}`,
        InsightsEntriesSchema,
      ),
    sessionInfo: (at, token) => authorized('GET', at, token, '/api/manager/sessions/session/me', SessionInfoSchema),
  };
}
