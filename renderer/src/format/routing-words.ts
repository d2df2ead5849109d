/**
 * What the forwarder did with a message, in names rather than ids (docs/webhooks-app.md, "Rows and
 * routing words"): "this app (Home)", "Holiday cabin and 2 other hubs", "nothing: body.device.id = "x"
 * matches no registration". The inspector's rows, their tooltips and the detail pane all read these
 * words, so a message is described the same way wherever it is shown. Pure: tested without a DOM.
 */
import type { RoutingDecision } from '../../../common/webhook-protocol';
import type { WebhookEntry, WebhookRouting } from '../../../common/ipc-contract';

/** What the words may name: this app's registration for the message's webhook, and the hubs the hub list knows. */
export interface RoutingNames {
  /** How this app registered for the message's webhook; undefined when it no longer does (removed), or for an imported message's unknown webhook. */
  ownRouting: WebhookRouting | undefined;
  hubName(hubId: string): string | undefined;
}

type Decided = Pick<WebhookEntry, 'routing' | 'delivered' | 'awaitingDelivery' | 'droppedByForwarder' | 'rejected'>;
type Match = RoutingDecision['matched'][number];

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** "a", "a and b", "a, b and c". */
function joinWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}

/** "this app", with what it was registered as: its hub's name, or the key value that matched. */
function thisApp(entry: Decided, names: RoutingNames): string {
  const own = names.ownRouting;
  const registeredAs =
    own?.kind === 'hub'
      ? names.hubName(own.hubId)
      : entry.routing?.option === 'key-path' && entry.routing.value !== undefined
        ? `key ${valueText(entry.routing.value)}`
        : undefined;
  const notes = [
    registeredAs,
    entry.droppedByForwarder && !entry.delivered ? 'dropped by the forwarder' : entry.awaitingDelivery && !entry.delivered ? 'not received yet' : undefined,
  ].filter((note) => note !== undefined);
  return notes.length === 0 ? 'this app' : `this app (${notes.join(', ')})`;
}

/** The match that is this app's own delivery: its hub's, else one without a hub (a key-value listener), else any. */
function ownMatchIndex(matched: readonly Match[], own: WebhookRouting | undefined): number {
  const byHub = own?.kind === 'hub' ? matched.findIndex((match) => match.hubId === own.hubId) : -1;
  if (byHub >= 0) return byHub;
  const keyed = matched.findIndex((match) => match.hubId === undefined);
  return keyed >= 0 ? keyed : matched.length > 0 ? 0 : -1;
}

/**
 * Whom it went to, or null for no one: this app (when it received the message or is about to), the
 * hubs the hub list names, and a count of the others ("2 other hubs"). Never a listener id.
 */
export function matchedWords(entry: Decided, names: RoutingNames): string | null {
  const received = entry.delivered || entry.awaitingDelivery || entry.droppedByForwarder === true;
  const others = [...(entry.routing?.matched ?? [])];
  if (received) {
    const own = ownMatchIndex(others, names.ownRouting);
    if (own >= 0) others.splice(own, 1);
  }
  const named = new Set<string>();
  let unnamed = 0;
  for (const match of others) {
    const name = match.hubId === undefined ? undefined : names.hubName(match.hubId);
    if (name === undefined) unnamed++;
    else named.add(name);
  }
  const words = [...(received ? [thisApp(entry, names)] : []), ...named, ...(unnamed > 0 ? [`${unnamed} other ${unnamed === 1 ? 'hub' : 'hubs'}`] : [])];
  return words.length === 0 ? null : joinWords(words);
}

/** Why no one received it, after "nothing: ". */
function nothingWords(routing: RoutingDecision): string {
  switch (routing.option) {
    case 'key-path': {
      const path = routing.keyPath ?? 'the key path';
      return routing.value === undefined ? `${path} has no value` : `${path} = ${JSON.stringify(routing.value)} matches no registration`;
    }
    case 'query':
      return '?hub= matches no registration';
    case 'legacy':
      return 'the legacy function chose no hub';
    case 'none':
      return routing.reason ?? 'not routed';
  }
}

/** The row's routing column (and its tooltip, in full): whom the message went to, or why no one. */
export function routingWords(entry: Decided, names: RoutingNames): string {
  if (entry.rejected) return `refused: ${entry.rejected.reason}`;
  if (!entry.routing) return entry.delivered ? `${thisApp(entry, names)}; routing not seen` : 'routing not seen';
  return matchedWords(entry, names) ?? `nothing: ${nothingWords(entry.routing)}`;
}

/** The routing decision in one sentence (docs/webhooks-app.md, "Rows and routing words"), for the detail pane: the same names, with why. */
export function decisionSentence(entry: Decided, names: RoutingNames): string {
  if (entry.rejected) return `The forwarder refused it with ${entry.rejected.status} (${entry.rejected.error}): ${entry.rejected.reason}`;
  const { routing } = entry;
  if (!routing)
    return entry.delivered
      ? 'Delivered to this app; the routing decision was not seen (the tap was not open).'
      : 'The routing decision was not seen (the tap was not open).';
  const matched = matchedWords(entry, names);
  const why = routing.reason ? ` ${routing.reason.charAt(0).toUpperCase()}${routing.reason.slice(1)}.` : '';
  const path = routing.keyPath ?? 'the key path';
  switch (routing.option) {
    case 'key-path':
      if (matched === null) return `Matched nothing: ${path} = ${routing.value === undefined ? 'nothing' : JSON.stringify(routing.value)}.${why}`;
      return `Matched ${matched} because ${path} = ${JSON.stringify(routing.value)}.`;
    case 'query':
      return matched === null ? `Matched nothing by ?hub=.${why}` : `Matched ${matched} by ?hub=.`;
    case 'legacy':
      return matched === null ? `The legacy function matched nothing.${why}` : `Matched ${matched}, chosen by the legacy function.`;
    case 'none':
      return `Not routed.${why}`;
  }
}
