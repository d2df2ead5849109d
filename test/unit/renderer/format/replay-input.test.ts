import { describe, expect, it } from 'vitest';
import { httpUrlProblem, jsonProblem, parseHeaderLines } from '../../../../renderer/src/format/replay-input';
import { signatureLabel } from '../../../../renderer/src/format/webhook-labels';

describe('parseHeaderLines', () => {
  it('reads "Name: value" lines, keeps colons in values, skips blank lines', () => {
    expect(parseHeaderLines('Content-Type: application/json\n\nX-Time: 12:30:00\n')).toEqual({
      ok: true,
      headers: [
        ['Content-Type', 'application/json'],
        ['X-Time', '12:30:00'],
      ],
    });
  });

  it('names the line that is not a header', () => {
    expect(parseHeaderLines('A: 1\nno colon here')).toEqual({ ok: false, issue: expect.stringContaining('line 2') });
    expect(parseHeaderLines('Bad Name: 1')).toEqual({ ok: false, issue: expect.stringContaining('line 1') });
  });
});

describe('jsonProblem', () => {
  it('is null for JSON and gives the line and column of the error otherwise', () => {
    expect(jsonProblem('{"a": [1, 2]}')).toBeNull();
    expect(jsonProblem('{\n  "a": 1,\n  "b": }')).toMatch(/line 3, column 8/);
  });
});

describe('httpUrlProblem', () => {
  it('takes intake and http(s) URLs only', () => {
    expect(httpUrlProblem('intake')).toBeNull();
    expect(httpUrlProblem('http://localhost:3000/hook')).toBeNull();
    expect(httpUrlProblem('file:///etc/passwd')).toMatch(/http/);
    expect(httpUrlProblem('localhost:3000')).not.toBeNull();
  });
});

describe('signatureLabel', () => {
  it('says each verdict in words, with the reason of an invalid one', () => {
    expect(signatureLabel({ status: 'valid', scheme: 'standard-webhooks' }).label).toBe('Valid signature (Standard Webhooks)');
    expect(signatureLabel({ status: 'invalid', scheme: 'stripe', reason: 'timestamp-too-old', detail: 'Signed 9 minutes before it arrived.' })).toEqual({
      label: 'Invalid signature (Stripe)',
      detail: 'Signed 9 minutes before it arrived.',
    });
    expect(signatureLabel({ status: 'no-secret', scheme: 'slack' }).detail).toMatch(/signing secret/);
    expect(signatureLabel({ status: 'unsigned' }).label).toBe('Unsigned');
  });
});
