/**
 * The official client's `api` calls over its socket (docs/interface.md A.7, "Realtime"): once connected,
 * homey-api sends every manager call as `{uri, operation, args}` instead of HTTP. Each operation the hub
 * serves names the hub's own HTTP route it is (the client's specification, HomeyAPIV3Local.json, gives
 * the same method and path); the route answers it with the caller's session, so scopes, checks and
 * errors are the route's, never a second copy of them.
 */
import { z } from 'zod';

/** One route: its method, its path with `:name` for each argument in it, and the arguments sent as query or body. */
interface Operation {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  query?: readonly string[];
  body?: readonly string[];
}

/** Per manager URI, the operations the hub serves (the same list as over HTTP, docs/interface.md A.7). */
const OPERATIONS: Readonly<Record<string, Readonly<Record<string, Operation>>>> = {
  'homey:manager:devices': {
    getDevices: { method: 'GET', path: '/api/manager/devices/device' },
    getDevice: { method: 'GET', path: '/api/manager/devices/device/:id' },
    setCapabilityValue: { method: 'PUT', path: '/api/manager/devices/device/:deviceId/capability/:capabilityId', body: ['value', 'transactionId'] },
  },
  'homey:manager:zones': {
    getZones: { method: 'GET', path: '/api/manager/zones/zone' },
    getZone: { method: 'GET', path: '/api/manager/zones/zone/:id' },
  },
  'homey:manager:flow': {
    getFlows: { method: 'GET', path: '/api/manager/flow/flow' },
    triggerFlow: { method: 'POST', path: '/api/manager/flow/flow/:id/trigger', body: [] },
  },
  'homey:manager:insights': {
    getLogs: { method: 'GET', path: '/api/manager/insights/log' },
    getLogEntries: { method: 'GET', path: '/api/manager/insights/log/:uri/:id/entry', query: ['resolution'] },
  },
  'homey:manager:sessions': {
    getSessionMe: { method: 'GET', path: '/api/manager/sessions/session/me' },
  },
};

export const OfficialApiCallSchema = z.object({
  uri: z.string().max(100),
  operation: z.string().max(100),
  args: z.record(z.string(), z.unknown()).optional(),
});
export type OfficialApiCall = z.infer<typeof OfficialApiCallSchema>;

/** A request for one of the hub's routes, made for a session. */
export interface RouteRequest {
  method: Operation['method'];
  /** Path and query. */
  url: string;
  body?: Record<string, unknown>;
}

/** How the client reads a refusal (its HomeyAPIError): the route's error body and its status. */
export interface OfficialApiError {
  statusCode: number;
  error: string;
  error_description: string;
}

const PathArgumentSchema = z.string().min(1).max(1000);
const QueryArgumentSchema = z.union([z.string().max(1000), z.number(), z.boolean()]);

/** The route request an `api` call stands for, or the error to answer it with (404: not served here; 400: arguments). */
export function routeRequestOf(call: OfficialApiCall): { ok: true; request: RouteRequest } | { ok: false; error: OfficialApiError } {
  const manager = Object.hasOwn(OPERATIONS, call.uri) ? OPERATIONS[call.uri]! : undefined;
  const operation = manager && Object.hasOwn(manager, call.operation) ? manager[call.operation]! : undefined;
  if (!operation)
    return refused(404, 'unknown_operation', `This hub does not serve ${call.operation.slice(0, 100)} of ${call.uri.slice(0, 100)} (docs/interface.md A.7).`);
  const args = call.args ?? {};
  let path = operation.path;
  for (const name of operation.path.match(/(?<=:)\w+/g) ?? []) {
    const value = PathArgumentSchema.safeParse(args[name]);
    if (!value.success) return refused(400, 'invalid_request', `${name} must be a string of 1 to 1000 characters.`);
    path = path.replace(`:${name}`, encodeURIComponent(value.data));
  }
  const query = new URLSearchParams();
  for (const name of operation.query ?? []) {
    if (args[name] === undefined) continue;
    const value = QueryArgumentSchema.safeParse(args[name]);
    if (!value.success) return refused(400, 'invalid_request', `${name} must be a string, number or boolean.`);
    query.set(name, String(value.data));
  }
  const body = operation.body && Object.fromEntries(operation.body.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));
  return { ok: true, request: { method: operation.method, url: query.size > 0 ? `${path}?${query}` : path, ...(body && { body }) } };
}

function refused(statusCode: number, error: string, description: string): { ok: false; error: OfficialApiError } {
  return { ok: false, error: { statusCode, error, error_description: description } };
}
