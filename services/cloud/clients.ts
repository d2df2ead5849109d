/**
 * Registered OAuth clients: who they are, where they may be redirected, and HTTP Basic client
 * authentication on the token endpoint (RFC 6749 §2.3.1). Secrets are kept only as SHA-256 hashes.
 */
import type { Scope } from '../../common/wire';
import { HttpError } from '../shared/http-error';
import { hashSecret, matchesHash } from '../shared/secrets';

export interface ClientRegistration {
  id: string;
  secret: string;
  /** Shown to the user on the consent page. */
  name: string;
  /** A native app (RFC 8252): PKCE S256 is required. */
  native: boolean;
  /** Exact URIs; a loopback `http://127.0.0.1/...` one matches any port (RFC 8252 §7.3). */
  redirectUris: string[];
  /** Granted on consent. */
  scopes: Scope[];
}

export interface Client {
  id: string;
  name: string;
  native: boolean;
  redirectUris: readonly string[];
  scopes: readonly Scope[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

export class ClientRegistry {
  private readonly clients = new Map<string, Client & { secretHash: string }>();

  constructor(registrations: readonly ClientRegistration[]) {
    for (const { secret, ...client } of registrations) {
      for (const uri of client.redirectUris) assertRegistrable(uri);
      this.clients.set(client.id, { ...client, secretHash: hashSecret(secret) });
    }
  }

  find(id: string): Client | undefined {
    return this.clients.get(id);
  }

  /** The client named by `Authorization: Basic ...`, or a 401 invalid_client (RFC 6749 §5.2). */
  authenticate(authorization: string | undefined): Client {
    const credentials = parseBasic(authorization);
    const client = credentials && this.clients.get(credentials.id);
    // The hash comparison runs for unknown clients too, so timing does not reveal which ids exist.
    const secretOk = matchesHash(credentials?.secret ?? '', client?.secretHash ?? hashSecret('\0unknown-client'));
    if (!client || !secretOk) {
      throw new HttpError(401, 'invalid_client', 'Client authentication failed: send HTTP Basic with the client id and secret.', {
        'www-authenticate': 'Basic realm="hubdesk"',
      });
    }
    return client;
  }
}

/** Whether `requested` is one of the client's registered redirect URIs (exact, except a loopback port). */
export function redirectUriAllowed(client: Client, requested: string): boolean {
  if (client.redirectUris.includes(requested)) return true;
  const loopback = asLoopback(requested);
  if (!loopback) return false;
  const portless = new URL(loopback.href);
  portless.port = '';
  return client.redirectUris.includes(portless.href);
}

/** Parses a loopback http URI that is written in its canonical form, so no odd spelling can sneak past the comparison. */
function asLoopback(uri: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  const canonical = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.href === uri;
  return canonical && !url.username && !url.password && !url.hash ? url : undefined;
}

function assertRegistrable(uri: string): void {
  const url = new URL(uri); // throws for a registration that is not a URI at all
  if (url.hash) throw new Error(`redirect URI must not have a fragment: ${uri}`);
}

/** RFC 7617 credentials, with id and secret form-decoded as RFC 6749 §2.3.1 requires. Undefined when malformed. */
export function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header ?? '');
  if (!match || match[1]!.length % 4 !== 0) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const id = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    return id === '' ? undefined : { id, secret };
  } catch {
    return undefined; // malformed percent-encoding
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
