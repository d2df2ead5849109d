/**
 * Raw-HTTP steps of the OAuth flow against a reference cloud, for the services' integration tests:
 * the authorisation URL, the browser part (test/support/consent-driver), and the token endpoint.
 */
import { createHash, randomBytes } from 'node:crypto';
import { consent, type Credentials } from '../../support/consent-driver';

export interface TestClient {
  id: string;
  secret: string;
  redirectUri: string;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authoriseUrl(cloudUrl: string, query: Record<string, string>): string {
  return `${cloudUrl}/oauth2/authorise?${new URLSearchParams(query).toString()}`;
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** Runs the consent pages and returns the redirect (code or error) the cloud sent. */
export async function authorise(
  cloudUrl: string,
  client: TestClient,
  who: Credentials,
  options: { decision?: 'Allow' | 'Deny'; state?: string; challenge?: string | null } = {},
): Promise<URL> {
  const query: Record<string, string> = { authorization_type: 'code', client_id: client.id, redirect_uri: client.redirectUri };
  if (options.state !== undefined) query.state = options.state;
  if (options.challenge !== null && options.challenge !== undefined) Object.assign(query, { code_challenge: options.challenge, code_challenge_method: 'S256' });
  return consent(authoriseUrl(cloudUrl, query), who, options.decision ?? 'Allow');
}

export async function postToken(cloudUrl: string, client: TestClient, form: Record<string, string>): Promise<Response> {
  return fetch(`${cloudUrl}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
}

/** The whole flow for a native client: consent, then the code exchange. */
export async function signIn(cloudUrl: string, client: TestClient, who: Credentials): Promise<Tokens> {
  const { verifier, challenge } = pkcePair();
  const redirect = await authorise(cloudUrl, client, who, { challenge, state: 'st' });
  const code = redirect.searchParams.get('code');
  if (!code) throw new Error(`no code in ${redirect.href}`);
  const response = await postToken(cloudUrl, client, {
    grant_type: 'authorization_code',
    authorization_code: code,
    code_verifier: verifier,
    redirect_uri: client.redirectUri,
  });
  if (response.status !== 200) throw new Error(`token exchange answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Tokens;
}

export async function delegationToken(cloudUrl: string, accessToken: string, hub?: string): Promise<string> {
  const query = new URLSearchParams({ audience: 'hub', ...(hub === undefined ? {} : { hub }) });
  const response = await fetch(`${cloudUrl}/delegation/token?${query.toString()}`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
  if (response.status !== 200) throw new Error(`delegation answered ${response.status}`);
  return (await response.json()) as string;
}
