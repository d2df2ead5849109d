/**
 * Which addresses may receive a hub credential (docs/security.md, "Route trust"). A route is used,
 * and so gets a delegation token and then the session token, only when the ping there proved it is
 * the user's hub:
 * - where the cloud's record publishes the hub's identity key, the hub must sign the app's fresh nonce
 *   with it, on every route: a device at a stale address or an mDNS impostor cannot;
 * - a hub without a published key is trusted only over TLS: its record's https addresses (checked
 *   against their host name) or an mDNS-heard https address whose certificate names the hub
 *   (the transport checks that, hub-client.ts `transportFor`); never over plain HTTP;
 * - the plain LAN route is not even asked when the user refused unencrypted routes.
 */
import { newPingNonce, verifyPing } from '../../../common/hub-identity';
import { z } from 'zod';
import type { HubClient, PingOutcome } from './hub-client';
import type { KeyValueStore } from '../shared';
import { isUnencrypted, type Ping } from './route-selection';

export const PLAIN_ROUTES_REFUSED = 'not used: you chose not to use unencrypted connections';

export interface RouteTrustOptions {
  /** The user's choice: may the unencrypted LAN route be used at all (after the secure one failed)? */
  allowUnencrypted: () => boolean;
}

export function createProvingPing(hubClient: HubClient, { allowUnencrypted }: RouteTrustOptions): Ping {
  return async (route, hub, signal) => {
    const encrypted = !isUnencrypted(route);
    if (!encrypted && route.kind === 'local' && !allowUnencrypted()) return failed(PLAIN_ROUTES_REFUSED);
    if (!encrypted && route.namedHub !== undefined) return failed('an address heard on the LAN is used only over TLS');
    const nonce = newPingNonce();
    const answer = await hubClient.ping(route, hub._id, nonce, signal);
    if (answer.kind === 'failed') return answer;
    const id = answer.kind === 'proof' ? answer.proof.id : answer.id;
    if (id !== hub._id) return { kind: 'wrong-hub' };
    if (hub.identityKey) {
      if (answer.kind === 'proof' && verifyPing(hub.identityKey, hub._id, nonce, answer.proof)) return { kind: 'hub' };
      return failed(
        `the device there did not prove it is ${hub.name} (${answer.kind === 'proof' ? 'its signature does not match the key in your account' : 'it sent no signature'}); Hubdesk sent it nothing`,
      );
    }
    if (!encrypted)
      return failed(`not used: ${hub.name} cannot prove who it is (no identity key in your account), so Hubdesk does not use an unencrypted connection to it`);
    return { kind: 'hub' };
  };
}

function failed(detail: string): PingOutcome {
  return { kind: 'failed', detail };
}

export const ALLOW_UNENCRYPTED_KEY = 'hubs:allow-unencrypted-routes';

/** The user's choice about unencrypted LAN routes, in the settings store; allowed unless refused (a malformed value reads as allowed, the default, as docs/interface.md §2.2 prefers localUrl over remoteUrl). */
export function createUnencryptedRoutesSetting(store: KeyValueStore): { allowed(): boolean; set(allow: boolean): void } {
  return {
    allowed: () => z.boolean().catch(true).parse(store.get(ALLOW_UNENCRYPTED_KEY)),
    set: (allow) => store.set(ALLOW_UNENCRYPTED_KEY, allow),
  };
}
