/**
 * One way to call a cloud or a hub: every request has a deadline, may be cancelled by the core's
 * lifetime signal, never follows redirects (a redirect could carry a bearer token elsewhere), and
 * every answer is parsed with a schema. Failures come back as values so each caller can decide
 * what a 401 or a network error means in its own protocol.
 */
import type { z } from 'zod';
import { parseJson } from '../../../common/json-message';
import { type ErrorBody, ErrorBodySchema } from '../../../common/wire';

export type FetchFn = typeof globalThis.fetch;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Aborts the request early, e.g. when the core is disposed or a probe is no longer needed. */
  signal?: AbortSignal;
}

export type HttpOutcome<T> =
  | { kind: 'ok'; value: T }
  /** The peer answered with a non-2xx status; `error` is its RFC 6749-style body when it sent one. */
  | { kind: 'status'; status: number; error: ErrorBody | null }
  /** No answer: refused, reset, timed out or aborted. */
  | { kind: 'network'; detail: string }
  /** A 2xx answer that is not what the protocol says (not JSON, or not the schema). */
  | { kind: 'malformed'; detail: string };

export async function requestJson<T>(fetchFn: FetchFn, request: HttpRequest, schema: z.ZodType<T>): Promise<HttpOutcome<T>> {
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([deadline, request.signal]) : deadline;
  let response: Response;
  let text: string;
  try {
    response = await fetchFn(request.url, {
      method: request.method,
      headers: { accept: 'application/json', ...request.headers },
      body: request.body,
      redirect: 'manual',
      signal,
    });
    text = await response.text();
  } catch (error) {
    return { kind: 'network', detail: describeFailure(error) };
  }
  const json = parseJson(text);
  if (!response.ok) {
    const body = ErrorBodySchema.safeParse(json);
    return { kind: 'status', status: response.status, error: body.success ? body.data : null };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'malformed', detail: issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unexpected response' };
  }
  return { kind: 'ok', value: parsed.data };
}

/** Joins a base URL (with or without trailing slash, possibly with a path) and an absolute path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

/** A failed request in the user's words: fetch's (the code on its cause) and undici's `request` (the code on the error) alike. */
export function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timed out';
    if (error.name === 'AbortError') return 'aborted';
    const code = (error as { cause?: { code?: unknown } }).cause?.code ?? (error as { code?: unknown }).code;
    if (typeof code !== 'string') return error.message;
    if (code === 'ERR_HUB_NOT_NAMED') return CERTIFICATE_NOT_THE_HUB;
    if (UNTRUSTED_CERTIFICATE_CODES.has(code)) return UNTRUSTED_CERTIFICATE;
    return NETWORK_ERRORS[code] ?? code;
  }
  return 'request failed';
}

/** What the user is told when TLS fails because no trusted CA vouches for the peer (not a network fault). */
export const UNTRUSTED_CERTIFICATE = 'untrusted certificate';

/** Node's network error codes in the user's words (route details show them); others are shown as the code. */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  ENOTFOUND: 'address not found',
  EAI_AGAIN: 'address not found',
  UND_ERR_SOCKET: 'connection closed',
};

/** What the user is told when a trusted certificate belongs to someone else than the hub asked for (an address heard over mDNS). */
export const CERTIFICATE_NOT_THE_HUB = 'the certificate there does not name this hub';

/** Node's TLS error codes for a certificate chain that does not end at a trusted CA (or only claims to: a forged issuer name). */
const UNTRUSTED_CERTIFICATE_CODES = new Set([
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);
