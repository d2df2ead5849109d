/**
 * The HTTP calls to one hub (spec §4.5, §4.6 and the ping of DESIGN.md). It only speaks the protocol;
 * what a 401 or a silent address means is decided by hub-sessions.
 */
import { type DeviceMap, DeviceMapSchema, JsonStringTokenSchema } from '../../common/wire';
import { type FetchFn, type HttpOutcome, joinUrl, requestJson } from './http';

export const HUB_PING_TIMEOUT_MS = 2_000;
export const HUB_TIMEOUT_MS = 10_000;

export interface HubClient {
  /** True only when the address answered as the hub with this id. */
  ping(baseUrl: string, hubId: string, signal?: AbortSignal): Promise<boolean>;
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
      return outcome.kind === 'ok' && outcome.value === hubId;
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
