/**
 * Routing of one intake (docs/interface.md §6.1), decided per request, in this order:
 * 1. `?hub=<id>` (first value) → the listeners registered with that hub id; nothing else is tried.
 * 2. the webhook's key path → its value in canonical form (canonicalKeyValue: strings as is, finite
 *    numbers as String(n), booleans as "true"/"false"; so `$key: 5` matches "5") → the listeners whose
 *    `$key` / `$keys` hold it. One Map lookup.
 * 3. the webhook's legacy function → one sandbox run for all listeners that registered data. When the
 *    webhook's own sandbox queue is full the request is refused with 429, when the forwarder's is, 503
 *    (both with Retry-After): the sender can retry, where a 202 would have lost the request.
 * 4. otherwise nothing is forwarded.
 * The decision always says what was done and, when nothing (or not all) matched, why.
 */
import { canonicalKeyValue, evaluateKeyPath, type KeyPath } from '../../common/key-path';
import type { RoutingDecision } from '../../common/webhook-protocol';
import { HttpError } from '../shared/http-error';
import type { Reservation } from './legacy/fair-queue';
import type { LegacyRunner } from './legacy/legacy-runner';
import type { ListenerSlot, WebhookListeners } from './listener-registry';
import type { WebhookRecord } from './webhook-store';

export interface RouteInput {
  headers: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** The body's JSON text, when at hand (message-frame.ts): the legacy sandbox is given it as it is. */
  bodyJson?: string;
}

export interface Routed {
  decision: RoutingDecision;
  targets: ListenerSlot[];
}

export interface RouteContext {
  webhook: WebhookRecord;
  keyPath: KeyPath | null;
  listeners: WebhookListeners | undefined;
  legacyRunner: LegacyRunner | undefined;
  /** The room held in the webhook's sandbox queue while the body was read (intake-handler.ts). */
  reservation?: Reservation | undefined;
}

const MAX_REASON_VALUE_LENGTH = 80;
/** A full queue of 100 requests drains in well under a second at the sandbox's few hundred runs a second. */
const LEGACY_RETRY_AFTER_SECONDS = 1;

/** Which option routes a request; known before its body is read. */
export function routingOption(webhook: WebhookRecord, keyPath: KeyPath | null, query: Record<string, string>): RoutingDecision['option'] {
  if (query.hub !== undefined && query.hub !== '') return 'query';
  if (keyPath) return 'key-path';
  return webhook.legacyFunction !== null ? 'legacy' : 'none';
}

/** Synchronous except for legacy functions, which wait for the sandbox. */
export function route(context: RouteContext, input: RouteInput): Routed | Promise<Routed> {
  const { webhook, keyPath, listeners } = context;
  switch (routingOption(webhook, keyPath, input.query)) {
    case 'query': {
      const hubId = input.query.hub!;
      const targets = [...(listeners?.byHub.get(hubId)?.values() ?? [])];
      return routed({ option: 'query' }, targets, () => `no listener registered for hub ${quote(hubId)}`);
    }
    case 'key-path':
      return routeByKeyPath(keyPath!, listeners, input);
    case 'legacy':
      return routeByLegacyFunction(webhook.legacyFunction!, context, input);
    case 'none':
      return routed({ option: 'none' }, [], () => 'the request has no hub query parameter and the webhook has neither a key path nor a legacy function');
  }
}

/** The 429 a flooded webhook's requests get, before or after their body was read. */
export function legacyQueueFull(description: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError(429, 'too_many_requests', description, { 'retry-after': String(LEGACY_RETRY_AFTER_SECONDS), ...headers });
}

function routeByKeyPath(keyPath: KeyPath, listeners: WebhookListeners | undefined, input: RouteInput): Routed {
  const base = { option: 'key-path' as const, keyPath: keyPath.source };
  const value = evaluateKeyPath(keyPath, input);
  if (value === undefined) return routed(base, [], () => `the key path ${keyPath.source} resolved to nothing`);
  const key = canonicalKeyValue(value);
  if (key === undefined) return routed({ ...base, value }, [], () => 'the key path value is not a string, number or boolean');
  const targets = [...(listeners?.byKey.get(key)?.values() ?? [])];
  return routed({ ...base, value }, targets, () => `no registration has $key ${quote(key)}`);
}

async function routeByLegacyFunction(source: string, context: RouteContext, input: RouteInput): Promise<Routed> {
  const candidates = [...(context.listeners?.slots.values() ?? [])].filter((slot) => slot.data !== undefined);
  if (candidates.length === 0) return routed({ option: 'legacy' }, [], () => 'no listener registered data for the legacy function');
  if (!context.legacyRunner) return routed({ option: 'legacy' }, [], () => 'legacy functions are not available on this forwarder');
  const outcome = await context.legacyRunner.run(
    source,
    input,
    candidates.map((slot) => ({ listenerId: slot.listenerId, data: slot.data })),
    context.webhook.id,
    context.reservation,
  );
  if (!outcome.ok && outcome.error === 'queue-full') throw legacyQueueFull(outcome.message);
  if (!outcome.ok && outcome.error === 'busy')
    throw new HttpError(503, 'temporarily_unavailable', outcome.message, { 'retry-after': String(LEGACY_RETRY_AFTER_SECONDS) });
  if (!outcome.ok) return routed({ option: 'legacy' }, [], () => `the legacy function failed (${outcome.error}): ${outcome.message}`);
  const matched = new Set(outcome.matched);
  // A listener that went away during the run is no longer in the registry, so it gets nothing.
  const targets = candidates.filter((slot) => matched.has(slot.listenerId) && context.listeners?.slots.get(slot.listenerId) === slot);
  return routed({ option: 'legacy' }, targets, () => 'the legacy function returned true for no listener');
}

/** `reasonIfNone` is only called when nothing matched: the common case (a match) builds no sentence. */
function routed(base: Omit<RoutingDecision, 'matched'>, targets: ListenerSlot[], reasonIfNone: () => string): Routed {
  const matched = targets.map((slot) => (slot.hubId === undefined ? { listenerId: slot.listenerId } : { listenerId: slot.listenerId, hubId: slot.hubId }));
  return { decision: targets.length > 0 ? { ...base, matched } : { ...base, matched, reason: reasonIfNone() }, targets };
}

function quote(value: string): string {
  const shown = value.length > MAX_REASON_VALUE_LENGTH ? `${value.slice(0, MAX_REASON_VALUE_LENGTH)}…` : value;
  return JSON.stringify(shown);
}
