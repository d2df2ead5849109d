/**
 * The HTTP calls to one hub (spec §4.5, §4.6, the ping of DESIGN.md, and the control calls of
 * common/hub-control.ts). It only speaks the protocol; what a 401 or a silent address means is
 * decided by hub-sessions.
 */
import type { z } from 'zod';
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
} from '../../common/hub-control';
import { type DeviceMap, DeviceMapSchema, JsonStringTokenSchema } from '../../common/wire';
import { type FetchFn, type HttpOutcome, type HttpRequest, joinUrl, requestJson } from './http';

export const HUB_PING_TIMEOUT_MS = 2_000;
export const HUB_TIMEOUT_MS = 10_000;

/** What a ping found at an address; route selection turns it into a per-route outcome for the user. */
export type PingOutcome =
  | { kind: 'hub' } // answered as the hub with the asked id
  | { kind: 'wrong-hub' } // answered, but as another hub: the address now belongs to someone else
  | { kind: 'failed'; detail: string }; // no usable answer: refused, untrusted certificate, HTTP error, not a hub

export interface HubClient {
  ping(baseUrl: string, hubId: string, signal?: AbortSignal): Promise<PingOutcome>;
  login(baseUrl: string, delegationToken: string): Promise<HttpOutcome<string>>;
  devices(baseUrl: string, sessionToken: string): Promise<HttpOutcome<DeviceMap>>;
  setCapability(baseUrl: string, sessionToken: string, deviceId: string, capabilityId: string, body: SetCapabilityBody): Promise<HttpOutcome<CapabilityEventData>>;
  flows(baseUrl: string, sessionToken: string): Promise<HttpOutcome<FlowMap>>;
  triggerFlow(baseUrl: string, sessionToken: string, flowId: string): Promise<HttpOutcome<FlowTriggerResult>>;
  /** What the session may do; a hub without this endpoint answers 404. */
  sessionInfo(baseUrl: string, sessionToken: string): Promise<HttpOutcome<SessionInfo>>;
}

const segment = encodeURIComponent;

export function createHubClient(fetchFn: FetchFn, lifetime: AbortSignal): HubClient {
  /** A call with the session token; ids in paths are percent-encoded so an odd id cannot change the path. */
  const authorized = <T>(method: HttpRequest['method'], baseUrl: string, sessionToken: string, path: string, schema: z.ZodType<T>, body?: unknown) =>
    requestJson(
      fetchFn,
      {
        method,
        url: joinUrl(baseUrl, path),
        headers: { authorization: `Bearer ${sessionToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: HUB_TIMEOUT_MS,
        signal: lifetime,
      },
      schema,
    );

  return {
    async ping(baseUrl, hubId, signal) {
      const outcome = await requestJson(
        fetchFn,
        {
          method: 'GET',
          url: joinUrl(baseUrl, `/api/manager/system/ping?${new URLSearchParams({ id: hubId }).toString()}`),
          timeoutMs: HUB_PING_TIMEOUT_MS,
          signal: signal ? AbortSignal.any([signal, lifetime]) : lifetime,
        },
        JsonStringTokenSchema,
      );
      switch (outcome.kind) {
        case 'ok':
          return outcome.value === hubId ? { kind: 'hub' } : { kind: 'wrong-hub' };
        case 'status':
          return { kind: 'failed', detail: `HTTP ${outcome.status}` };
        case 'network':
        case 'malformed':
          return { kind: 'failed', detail: outcome.detail };
      }
    },
    login: (baseUrl, delegationToken) =>
      requestJson(
        fetchFn,
        {
          method: 'POST',
          url: joinUrl(baseUrl, '/api/manager/users/login'),
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: delegationToken }),
          timeoutMs: HUB_TIMEOUT_MS,
          signal: lifetime,
        },
        JsonStringTokenSchema,
      ),
    devices: (baseUrl, token) => authorized('GET', baseUrl, token, '/api/manager/devices/device', DeviceMapSchema),
    setCapability: (baseUrl, token, deviceId, capabilityId, body) =>
      authorized('PUT', baseUrl, token, `/api/manager/devices/device/${segment(deviceId)}/capability/${segment(capabilityId)}`, CapabilityEventDataSchema, body),
    flows: (baseUrl, token) => authorized('GET', baseUrl, token, '/api/manager/flow/flow', FlowMapSchema),
    triggerFlow: (baseUrl, token, flowId) => authorized('POST', baseUrl, token, `/api/manager/flow/flow/${segment(flowId)}/trigger`, FlowTriggerResultSchema, {}),
    sessionInfo: (baseUrl, token) => authorized('GET', baseUrl, token, '/api/manager/sessions/session/me', SessionInfoSchema),
  };
}
