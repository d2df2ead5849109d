/**
 * What "Sign out" ends, said before it does: the hubs by name (Hubdesk ends the sessions it holds on
 * them, on the hubs too: docs/security.md "Sessions end at sign-out"), and that webhooks go on, as
 * they need no sign-in (docs/webhooks-app.md, "Sign-out does not remove registrations").
 */

/** Hubs named one by one up to this many; more are counted. */
const NAMED_HUBS = 3;

/** `hubNames`: the listed hubs' names, undefined while the list is not loaded; `webhooks`: how many are registered. */
export function signOutSummary(hubNames: readonly string[] | undefined, webhooks: number): string {
  const hubs =
    hubNames === undefined
      ? 'This disconnects Hubdesk from your hubs and ends the sessions it holds on them.'
      : hubNames.length === 0
        ? 'This signs Hubdesk out of your cloud account.'
        : `This disconnects Hubdesk from ${hubsPhrase(hubNames)} and ends the sessions it holds on ${hubNames.length === 1 ? 'it' : 'them'}.`;
  const kept = webhooks === 0 ? '' : ` ${webhooks === 1 ? 'Your webhook keeps' : `Your ${webhooks} webhooks keep`} listening: webhooks need no sign-in.`;
  return `${hubs}${kept}`;
}

function hubsPhrase(names: readonly string[]): string {
  if (names.length === 1) return names[0]!;
  if (names.length > NAMED_HUBS) return `your ${names.length} hubs`;
  return `your ${names.length} hubs (${names.slice(0, -1).join(', ')} and ${names.at(-1)!})`;
}
