/**
 * What "Sign out" ends, said before it does: the hubs by name (Hubdesk ends the sessions it holds on
 * them, on the hubs too: docs/security.md "Sessions end at sign-out"), and that webhooks go on, as
 * they need no sign-in (docs/webhooks-app.md, "Sign-out does not remove registrations") — except that
 * one sent to a chosen hub proves that hub with the sign-in at each connection ("Proving the hub").
 */

/** The registered webhooks: how many in all, and how many of them are sent to a chosen hub. */
export interface WebhookCounts {
  all: number;
  forAHub: number;
}

/** Hubs named one by one up to this many; more are counted. */
const NAMED_HUBS = 3;

/** `hubNames`: the listed hubs' names, undefined while the list is not loaded. */
export function signOutSummary(hubNames: readonly string[] | undefined, webhooks: WebhookCounts): string {
  const hubs =
    hubNames === undefined
      ? 'This disconnects Hubdesk from your hubs and ends the sessions it holds on them.'
      : hubNames.length === 0
        ? 'This signs Hubdesk out of your cloud account.'
        : `This disconnects Hubdesk from ${hubsPhrase(hubNames)} and ends the sessions it holds on ${hubNames.length === 1 ? 'it' : 'them'}.`;
  return `${hubs}${webhooksPhrase(webhooks)}`;
}

function webhooksPhrase({ all, forAHub }: WebhookCounts): string {
  if (all === 0) return '';
  if (forAHub === 0) return ` ${all === 1 ? 'Your webhook keeps' : `Your ${all} webhooks keep`} listening: webhooks need no sign-in.`;
  const waiting =
    forAHub === 1 ? (all === 1 ? 'It is' : 'The one sent to a chosen hub is') : all === forAHub ? 'They are' : `The ${forAHub} sent to a chosen hub are`;
  return ` ${all === 1 ? 'Your webhook keeps' : `Your ${all} webhooks keep`} listening. ${waiting} paused at ${forAHub === 1 ? 'its' : 'their'} next reconnection until you sign in again: the forwarder asks for proof of the hub each time.`;
}

function hubsPhrase(names: readonly string[]): string {
  if (names.length === 1) return names[0]!;
  if (names.length > NAMED_HUBS) return `your ${names.length} hubs`;
  return `your ${names.length} hubs (${names.slice(0, -1).join(', ')} and ${names.at(-1)!})`;
}
