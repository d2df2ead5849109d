/**
 * Signature schemes (docs/webhooks-app.md, "Signatures") against the providers' published examples: GitHub's "Validating
 * webhook deliveries", the Standard Webhooks specification's test vector, Slack's "Verifying requests
 * from Slack". Stripe publishes no example with its secret: its case is signed by openssl, a second
 * implementation of the documented recipe (`<t>.<body>`, HMAC-SHA256, hex).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { signatureScheme, verifySignature, type SignedMessage } from '../../../../../main/core/webhooks/webhook-signatures';

const text = (value: string) => new TextEncoder().encode(value);
const at = (seconds: number) => seconds * 1000;

const github = {
  secret: "It's a Secret to Everybody",
  message: (body = 'Hello, World!'): SignedMessage => ({
    headers: { 'x-hub-signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17' },
    rawBody: text(body),
    receivedAt: Date.UTC(2026, 0, 1),
  }),
};

const standard = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  message: (body = '{"test": 2432232314}', receivedAt = at(1614265330), prefix = 'webhook-'): SignedMessage => ({
    headers: {
      [`${prefix}id`]: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      [`${prefix}timestamp`]: '1614265330',
      [`${prefix}signature`]: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    },
    rawBody: text(body),
    receivedAt,
  }),
};

const slackBody =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
const slack = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  message: (body = slackBody, receivedAt = at(1531420618 + 10)): SignedMessage => ({
    headers: { 'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503', 'x-slack-request-timestamp': '1531420618' },
    rawBody: text(body),
    receivedAt,
  }),
};

const stripeSecret = 'whsec_test_8DXqQmbtLzLb2Zc0';
const stripeTimestamp = 1700000000;
const stripeBody = '{"id":"evt_1","type":"invoice.paid","amount":1999}';
const stripeDigest = execFileSync('openssl', ['dgst', '-sha256', '-hmac', stripeSecret, '-r'], {
  input: `${stripeTimestamp}.${stripeBody}`,
  encoding: 'utf8',
}).split(' ')[0]!;
const stripe = (
  body = stripeBody,
  receivedAt = at(stripeTimestamp + 30),
  header = `t=${stripeTimestamp},v1=${'0'.repeat(64)},v1=${stripeDigest},v0=ignored`,
): SignedMessage => ({
  headers: { 'stripe-signature': header },
  rawBody: text(body),
  receivedAt,
});

describe('published examples verify', () => {
  it('GitHub', () => expect(verifySignature(github.message(), github.secret)).toEqual({ status: 'valid', scheme: 'github' }));
  it('Standard Webhooks, under its names and under Svix’s', () => {
    expect(verifySignature(standard.message(), standard.secret)).toEqual({ status: 'valid', scheme: 'standard-webhooks' });
    expect(verifySignature(standard.message(undefined, undefined, 'svix-'), standard.secret)).toEqual({ status: 'valid', scheme: 'standard-webhooks' });
  });
  it('Slack', () => expect(verifySignature(slack.message(), slack.secret)).toEqual({ status: 'valid', scheme: 'slack' }));
  it('Stripe (any of several v1 signatures)', () => expect(verifySignature(stripe(), stripeSecret)).toEqual({ status: 'valid', scheme: 'stripe' }));
});

describe('a tampered body or a wrong secret is a mismatch', () => {
  const cases: [string, SignedMessage, string, SignedMessage, string][] = [
    ['GitHub', github.message('Hello, World?'), github.secret, github.message(), "It's a secret to everybody"],
    ['Standard Webhooks', standard.message('{"test": 2432232315}'), standard.secret, standard.message(), 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSx'],
    ['Slack', slack.message(slackBody.replace('foobar', 'foobaz')), slack.secret, slack.message(), '8f742231b10e8888abcd99yyyzzz85a6'],
    ['Stripe', stripe(stripeBody.replace('1999', '1')), stripeSecret, stripe(), 'whsec_test_8DXqQmbtLzLb2Zc1'],
  ];
  it.each(cases)('%s', (_name, tampered, secret, original, wrongSecret) => {
    expect(verifySignature(tampered, secret)).toMatchObject({ status: 'invalid', reason: 'mismatch' });
    expect(verifySignature(original, wrongSecret)).toMatchObject({ status: 'invalid', reason: 'mismatch' });
  });

  it('one flipped byte anywhere in the body', () => {
    const body = text('Hello, World!');
    for (let i = 0; i < body.length; i++) {
      const flipped = body.slice();
      flipped[i] = flipped[i]! ^ 1;
      expect(verifySignature({ ...github.message(), rawBody: flipped }, github.secret).status).toBe('invalid');
    }
  });
});

describe('timestamps are judged at arrival', () => {
  it('Stripe refuses one signed more than 300 s before it arrived, and says by how much', () => {
    const verdict = verifySignature(stripe(undefined, at(stripeTimestamp + 301)), stripeSecret);
    expect(verdict).toMatchObject({ status: 'invalid', scheme: 'stripe', reason: 'timestamp-too-old' });
    expect(verdict.status === 'invalid' && verdict.detail).toMatch(/5 minutes before it arrived; at most 5 minutes/);
    expect(verifySignature(stripe(undefined, at(stripeTimestamp + 300)), stripeSecret).status).toBe('valid');
  });

  it('Standard Webhooks and Slack refuse one too old or too far in the future', () => {
    expect(verifySignature(standard.message(undefined, at(1614265330 + 301)), standard.secret)).toMatchObject({ reason: 'timestamp-too-old' });
    expect(verifySignature(standard.message(undefined, at(1614265330 - 301)), standard.secret)).toMatchObject({ reason: 'timestamp-in-future' });
    expect(verifySignature(slack.message(undefined, at(1531420618 + 3600 * 5)), slack.secret)).toMatchObject({
      reason: 'timestamp-too-old',
      detail: expect.stringMatching(/5 hours/),
    });
    expect(verifySignature(slack.message(undefined, at(1531420618 - 400)), slack.secret)).toMatchObject({ reason: 'timestamp-in-future' });
  });

  it('a message kept in the history stays valid however long after it is looked at', () => {
    // The published Standard Webhooks vector is from 2021: it verifies because it is judged at its arrival.
    expect(verifySignature(standard.message(), standard.secret).status).toBe('valid');
  });
});

describe('unsigned, no secret, malformed', () => {
  it('a message without a known signature header is unsigned; a signed one without a secret says so', () => {
    expect(verifySignature({ headers: { 'content-type': 'application/json' }, rawBody: text('{}'), receivedAt: 0 }, 'secret')).toEqual({ status: 'unsigned' });
    expect(verifySignature(github.message(), undefined)).toEqual({ status: 'no-secret', scheme: 'github' });
    expect(verifySignature(stripe(), '')).toEqual({ status: 'no-secret', scheme: 'stripe' });
  });

  it('a partial Standard Webhooks header set is not taken for one', () => {
    expect(signatureScheme({ 'webhook-id': 'x', 'webhook-signature': 'v1,abc' })).toBeUndefined();
  });

  it.each([
    ['GitHub without sha256=', { 'x-hub-signature-256': 'sha1=abc' }, github.secret],
    ['Stripe without t=', { 'stripe-signature': `v1=${stripeDigest}` }, stripeSecret],
    ['Stripe with a timestamp that is not a number', { 'stripe-signature': `t=soon,v1=${stripeDigest}` }, stripeSecret],
    ['Slack without its timestamp', { 'x-slack-signature': 'v0=' + 'a'.repeat(64) }, slack.secret],
    [
      'Standard Webhooks with only an asymmetric v1a signature',
      { 'webhook-id': 'm', 'webhook-timestamp': '1', 'webhook-signature': 'v1a,abc' },
      standard.secret,
    ],
    ['Standard Webhooks with a secret that is not base64', { 'webhook-id': 'm', 'webhook-timestamp': '1', 'webhook-signature': 'v1,abc' }, 'whsec_not base64!'],
  ])('%s is malformed, with a sentence saying why', (_name, headers, secret) => {
    const verdict = verifySignature({ headers, rawBody: text('{}'), receivedAt: 1000 }, secret);
    expect(verdict).toMatchObject({ status: 'invalid', reason: 'malformed' });
    expect(verdict.status === 'invalid' && verdict.detail.length).toBeGreaterThan(20);
  });
});
