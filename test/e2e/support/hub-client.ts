/**
 * Another client of a stack's hub, played by a test or bench: it signs in with the demo client through
 * the consent pages over HTTP, takes a delegation token, opens a hub session and then reads devices and
 * sets capability values over the hub's HTTP API — a change the app did not make. Answers are parsed
 * with the shared schemas; any refusal throws with the hub's status and body.
 */
import { type CapabilityEventData, CapabilityEventDataSchema, type CapabilityValue } from '../../../common/hub-control';
import { deviceLogId, deviceLogUri, type InsightsEntries, InsightsEntriesSchema, type InsightsResolution } from '../../../common/insights';
import { type Device, DeviceMapSchema, JsonStringTokenSchema } from '../../../common/wire';
import type { StackInfo } from '../../../services/stack';
import { delegationToken, signIn } from '../../integration/services/oauth-helpers';

export interface HubClient {
  /** The hub's device of that name (names are unique per demo hub). */
  device(name: string): Promise<Device>;
  setCapability(deviceId: string, capabilityId: string, value: CapabilityValue): Promise<CapabilityEventData>;
  /** One capability's history, as the hub answers any client. */
  insightsEntries(deviceId: string, capabilityId: string, resolution: InsightsResolution): Promise<InsightsEntries>;
}

export async function connectHubClient(info: StackInfo, hubName: string): Promise<HubClient> {
  const hub = info.hubs.find((candidate) => candidate.name === hubName);
  const baseUrl = hub?.localUrl ?? hub?.remoteUrl;
  if (!hub || !baseUrl) throw new Error(`the stack has no reachable hub named ${hubName}`);
  const { access_token } = await signIn(info.auth_url, { id: info.client.id, secret: info.client.secret, redirectUri: info.client.redirect_uri }, info.user);
  const login = await call(`${baseUrl}/api/manager/users/login`, 'POST', null, { token: await delegationToken(info.auth_url, access_token, hub.id) });
  const session = JsonStringTokenSchema.parse(login);

  return {
    async device(name) {
      const devices = DeviceMapSchema.parse(await call(`${baseUrl}/api/manager/devices/device`, 'GET', session));
      const device = Object.values(devices).find((candidate) => candidate.name === name);
      if (!device) throw new Error(`${hubName} has no device named ${name}`);
      return device;
    },
    async setCapability(deviceId, capabilityId, value) {
      const path = `/api/manager/devices/device/${encodeURIComponent(deviceId)}/capability/${encodeURIComponent(capabilityId)}`;
      return CapabilityEventDataSchema.parse(await call(`${baseUrl}${path}`, 'PUT', session, { value }));
    },
    async insightsEntries(deviceId, capabilityId, resolution) {
      const path = `/api/manager/insights/log/${encodeURIComponent(deviceLogUri(deviceId))}/${encodeURIComponent(deviceLogId(deviceId, capabilityId))}/entry?resolution=${resolution}`;
      return InsightsEntriesSchema.parse(await call(`${baseUrl}${path}`, 'GET', session));
    },
  };
}

async function call(url: string, method: 'GET' | 'POST' | 'PUT', session: string | null, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (session) headers.authorization = `Bearer ${session}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}
