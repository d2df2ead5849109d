/**
 * The HTTP calls to one hub (spec §4.5, §4.6 and the ping of DESIGN.md). It only speaks the protocol;
 * what a 401 or a silent address means is decided by hub-sessions.
 */
import { type DeviceMap, DeviceMapSchema, JsonStringTokenSchema } from '../../common/wire';
import { type FetchFn, type HttpOutcome, joinUrl, requestJson } from './http';

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
}

export function createHubClient(fetchFn: FetchFn, lifetime: AbortSignal): HubClient {
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
    devices: (baseUrl, sessionToken) =>
      requestJson(
        fetchFn,
        {
          method: 'GET',
          url: joinUrl(baseUrl, '/api/manager/devices/device'),
          headers: { authorization: `Bearer ${sessionToken}` },
          timeoutMs: HUB_TIMEOUT_MS,
          signal: lifetime,
        },
        DeviceMapSchema,
      ),
  };
}
