/**
 * Signature checks of a received webhook (docs/webhooks-app.md, "Signatures"), against its raw bytes, for the schemes hub
 * developers meet:
 *
 * - Standard Webhooks (also sent by Svix under `svix-` names): `webhook-id`, `webhook-timestamp`,
 *   `webhook-signature: v1,<base64> …`; HMAC-SHA256 keyed by the base64 secret after `whsec_`, over
 *   `<id>.<timestamp>.<body>`; timestamps more than 5 minutes from the arrival refused either way.
 * - GitHub: `X-Hub-Signature-256: sha256=<hex>`, HMAC-SHA256 keyed by the secret's text, over the body.
 * - Stripe: `Stripe-Signature: t=<ts>,v1=<hex>[,v1=…]`, HMAC-SHA256 keyed by the whole secret text,
 *   over `<t>.<body>`; a timestamp older than 300 s refused (Stripe's default tolerance).
 * - Slack: `X-Slack-Signature: v0=<hex>` with `X-Slack-Request-Timestamp`, HMAC-SHA256 over
 *   `v0:<ts>:<body>`; more than 5 minutes from the arrival refused.
 *
 * The timestamp is compared with the time the message ARRIVED when the app received it itself: a message
 * kept in the history stays valid when looked at days later, and one that was stale when it came stays
 * invalid. An imported message's arrival time is only what its file says, so it is checked against
 * now (docs/webhooks-app.md, "Export and import"): a capture an hour old is too old.
 * Digests are compared in constant time. The secret never leaves main (this module runs there).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureScheme, SignatureVerdict } from '../../../common/ipc-contract';

export interface SignedMessage {
  /** Header names in lower case (first values, as the inspector keeps them). */
  headers: Readonly<Record<string, string>>;
  rawBody: Uint8Array;
  /** The time the timestamp is held against, epoch milliseconds: when the message arrived, or now. */
  receivedAt: number;
  /** What `receivedAt` is, for the words of a verdict; 'arrival' when not said. */
  reference?: 'arrival' | 'now';
}

const FIVE_MINUTES = 300;

/** The scheme a message is signed with, by its headers; undefined when it carries no signature we know. */
export function signatureScheme(headers: SignedMessage['headers']): SignatureScheme | undefined {
  if (standardHeaders(headers)) return 'standard-webhooks';
  if (headers['x-hub-signature-256'] !== undefined) return 'github';
  if (headers['stripe-signature'] !== undefined) return 'stripe';
  if (headers['x-slack-signature'] !== undefined) return 'slack';
  return undefined;
}

/** Checks a message against the registration's signing secret (undefined when none is set). */
export function verifySignature(message: SignedMessage, secret: string | undefined): SignatureVerdict {
  const scheme = signatureScheme(message.headers);
  if (scheme === undefined) return { status: 'unsigned' };
  if (secret === undefined || secret === '') return { status: 'no-secret', scheme };
  const failure = VERIFIERS[scheme](message, secret);
  return failure ? { status: 'invalid', scheme, ...failure } : { status: 'valid', scheme };
}

type Failure = Pick<Extract<SignatureVerdict, { status: 'invalid' }>, 'reason' | 'detail'>;
type Verifier = (message: SignedMessage, secret: string) => Failure | undefined;

const MISMATCH: Failure = { reason: 'mismatch', detail: 'The signature does not match the body and the signing secret.' };
const malformed = (detail: string): Failure => ({ reason: 'malformed', detail });

const VERIFIERS: Record<SignatureScheme, Verifier> = {
  'standard-webhooks': (message, secret) => {
    const { id, timestamp, signature } = standardHeaders(message.headers)!;
    const seconds = unixSeconds(timestamp);
    if (seconds === undefined) return malformed(`The timestamp "${timestamp}" is not a number of seconds.`);
    const stale = outsideTolerance(seconds, message, FIVE_MINUTES, 'both');
    if (stale) return stale;
    const key = standardKey(secret);
    if (!key) return malformed('The signing secret is not base64 (Standard Webhooks secrets look like whsec_…).');
    const candidates = signature
      .split(' ')
      .filter((part) => part.startsWith('v1,'))
      .map((part) => Buffer.from(part.slice(3), 'base64'));
    if (candidates.length === 0) return malformed('The webhook-signature header has no v1 signature (only v1, HMAC-SHA256, is checked).');
    const expected = hmac(key, `${id}.${timestamp}.`, message.rawBody);
    return candidates.some((candidate) => sameBytes(candidate, expected)) ? undefined : MISMATCH;
  },

  github: (message, secret) => {
    const header = message.headers['x-hub-signature-256']!;
    const digest = /^sha256=([0-9a-f]{64})$/i.exec(header.trim())?.[1];
    if (!digest) return malformed('X-Hub-Signature-256 is not "sha256=" and 64 hex digits.');
    return sameBytes(Buffer.from(digest, 'hex'), hmac(Buffer.from(secret, 'utf8'), '', message.rawBody)) ? undefined : MISMATCH;
  },

  stripe: (message, secret) => {
    const pairs = message.headers['stripe-signature']!.split(',').map((pair) => pair.trim().split('=', 2) as [string, string | undefined]);
    const timestamp = pairs.find(([name]) => name === 't')?.[1];
    const candidates = pairs
      .filter(([name, value]) => name === 'v1' && value !== undefined && /^[0-9a-f]{64}$/i.test(value))
      .map(([, value]) => Buffer.from(value!, 'hex'));
    const seconds = timestamp === undefined ? undefined : unixSeconds(timestamp);
    if (seconds === undefined || candidates.length === 0) return malformed('Stripe-Signature has no "t=" timestamp or no v1 signature.');
    const stale = outsideTolerance(seconds, message, FIVE_MINUTES, 'past');
    if (stale) return stale;
    const expected = hmac(Buffer.from(secret, 'utf8'), `${timestamp}.`, message.rawBody);
    return candidates.some((candidate) => sameBytes(candidate, expected)) ? undefined : MISMATCH;
  },

  slack: (message, secret) => {
    const digest = /^v0=([0-9a-f]{64})$/i.exec(message.headers['x-slack-signature']!.trim())?.[1];
    const timestamp = message.headers['x-slack-request-timestamp'];
    const seconds = timestamp === undefined ? undefined : unixSeconds(timestamp);
    if (!digest || seconds === undefined) return malformed('X-Slack-Signature is not "v0=" and 64 hex digits, or X-Slack-Request-Timestamp is missing.');
    const stale = outsideTolerance(seconds, message, FIVE_MINUTES, 'both');
    if (stale) return stale;
    return sameBytes(Buffer.from(digest, 'hex'), hmac(Buffer.from(secret, 'utf8'), `v0:${timestamp}:`, message.rawBody)) ? undefined : MISMATCH;
  },
};

/** The three Standard Webhooks headers, under their own names or Svix's. */
function standardHeaders(headers: SignedMessage['headers']): { id: string; timestamp: string; signature: string } | undefined {
  for (const prefix of ['webhook-', 'svix-']) {
    const id = headers[`${prefix}id`];
    const timestamp = headers[`${prefix}timestamp`];
    const signature = headers[`${prefix}signature`];
    if (id !== undefined && timestamp !== undefined && signature !== undefined) return { id, timestamp, signature };
  }
  return undefined;
}

/** A Standard Webhooks secret's key bytes: base64 after the optional `whsec_` prefix. */
function standardKey(secret: string): Buffer | undefined {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  return Buffer.from(encoded, 'base64');
}

function unixSeconds(text: string): number | undefined {
  return /^\d{1,12}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

function outsideTolerance(seconds: number, { receivedAt, reference }: SignedMessage, tolerance: number, sides: 'past' | 'both'): Failure | undefined {
  const age = Math.floor(receivedAt / 1000) - seconds;
  const [before, after] = reference === 'now' ? ['ago', 'from now'] : ['before it arrived', 'after it arrived'];
  if (age > tolerance)
    return { reason: 'timestamp-too-old', detail: `Signed ${describeSeconds(age)} ${before}; at most ${describeSeconds(tolerance)} is accepted.` };
  if (sides === 'both' && -age > tolerance)
    return { reason: 'timestamp-in-future', detail: `Signed ${describeSeconds(-age)} ${after}; at most ${describeSeconds(tolerance)} is accepted.` };
  return undefined;
}

function describeSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} minutes`;
  return `${Math.round(seconds / 3600)} hours`;
}

function hmac(key: Buffer, prefix: string, body: Uint8Array): Buffer {
  return createHmac('sha256', key).update(prefix, 'utf8').update(body).digest();
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
