/**
 * Who a cloud access token belongs to, asked of the cloud itself (`GET {cloud}/user/me`, docs/interface.md §4.3):
 * the portal's JSON API (portal-api.ts) takes the app's own access token instead of a portal session, so the
 * user signs in once, with the cloud. Bounded in time (IDENTITY_TIMEOUT_MS) and size (MAX_IDENTITY_BYTES),
 * no redirect followed; the token is sent to the configured cloud only and never logged.
 */
export const IDENTITY_TIMEOUT_MS = 5_000;
export const MAX_IDENTITY_BYTES = 64 * 1024;

/** The cloud's answer: the user's id, `invalid` (401: not a live token), or `unavailable` (unreachable, or an answer that is not one). */
export type CloudIdentity = { kind: 'user'; userId: string } | { kind: 'invalid' } | { kind: 'unavailable'; reason: string };

export type VerifyAccessToken = (token: string) => Promise<CloudIdentity>;

export function cloudIdentityVerifier(cloudUrl: string, fetchFn: typeof fetch = fetch): VerifyAccessToken {
  const meUrl = new URL('user/me', cloudUrl.endsWith('/') ? cloudUrl : `${cloudUrl}/`);
  return async (token) => {
    let response: Response;
    try {
      response = await fetchFn(meUrl, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(IDENTITY_TIMEOUT_MS),
      });
    } catch (error) {
      return { kind: 'unavailable', reason: `the cloud did not answer (${(error as Error).name})` };
    }
    if (response.status === 401) {
      await response.body?.cancel();
      return { kind: 'invalid' };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return { kind: 'unavailable', reason: `the cloud answered ${response.status}` };
    }
    const text = await boundedText(response);
    const userId = text === undefined ? undefined : userIdOf(text);
    return userId === undefined ? { kind: 'unavailable', reason: 'the cloud’s user record is not one' } : { kind: 'user', userId };
  };
}

async function boundedText(response: Response): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of response.body ?? []) {
    bytes += chunk.byteLength;
    if (bytes > MAX_IDENTITY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function userIdOf(text: string): string | undefined {
  try {
    const record: unknown = JSON.parse(text);
    const id = typeof record === 'object' && record !== null ? (record as { _id?: unknown })._id : undefined;
    return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : undefined;
  } catch {
    return undefined;
  }
}
