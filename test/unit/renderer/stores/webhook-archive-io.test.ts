import { describe, expect, it } from 'vitest';
import type { Bridge, SignatureVerdict, WebhookEntry, WebhookMessageResult } from '../../../../common/ipc-contract';
import { bytesBase64 } from '../../../../common/base64';
import type { Envelope } from '../../../../common/app-error';
import { exportMessages } from '../../../../renderer/src/stores/webhook-archive-io';

const id = (sequence: number) => `evt_000000001_${String(sequence).padStart(10, '0')}`;
const body = bytesBase64(new TextEncoder().encode('{"n":1}'));

function entry(sequence: number, receivedAt: string): WebhookEntry {
  return {
    webhookId: 'wh_1',
    id: id(sequence),
    receivedAt,
    method: 'POST',
    size: 7,
    headers: {},
    query: {},
    routing: null,
    delivered: true,
    pairsCut: false,
    bodyBytes: 7,
    preview: '{"n":1}',
    previewKind: 'text',
    truncated: false,
    awaitingDelivery: false,
  };
}

/** A bridge whose main keeps every entry's message, checked now as `verdict`; `claimed` for the imported ones. */
function bridgeOf(entries: WebhookEntry[], verdict: SignatureVerdict, claimed: Record<string, SignatureVerdict> = {}): Pick<Bridge, 'inspector'> {
  const message = async (webhookId: string, messageId: string): Promise<Envelope<WebhookMessageResult>> => {
    const found = entries.find((candidate) => candidate.id === messageId)!;
    const { pairsCut: _p, bodyBytes: _b, preview: _v, previewKind: _k, truncated: _t, awaitingDelivery: _a, ...intake } = found;
    const kept: WebhookMessageResult = {
      status: 'kept',
      message: {
        ...intake,
        webhookId,
        body: { n: 1 },
        bodyOmitted: false,
        rawBody: body,
        rawTruncated: false,
        ...(claimed[messageId] && { archivedSignature: claimed[messageId] }),
      },
      signature: verdict,
    };
    return { ok: true, value: kept };
  };
  return { inspector: { message } } as unknown as Pick<Bridge, 'inspector'>;
}

describe('export', () => {
  it("writes the messages in the forwarder's order, whatever their times say, with each one's signature check", async () => {
    // Two instances whose clocks differ: the later intake has the earlier time.
    const entries = [entry(2, '2026-11-24T10:00:00.000Z'), entry(1, '2026-11-24T10:00:01.000Z'), entry(3, '2026-11-24T09:59:00.000Z')];
    const valid: SignatureVerdict = { status: 'valid', scheme: 'github' };
    const claimed: SignatureVerdict = { status: 'invalid', scheme: 'github', reason: 'mismatch', detail: 'The signature does not match.' };
    const result = await exportMessages(bridgeOf(entries, valid, { [id(3)]: claimed }), entries, [], 'ndjson');
    if (!result.ok) throw new Error(result.error.message);
    const lines = result.value.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; signature: SignatureVerdict });
    expect(lines.map((line) => line.id)).toEqual([id(1), id(2), id(3)]);
    // An imported message exports the check its file said, not the one made now.
    expect(lines.map((line) => line.signature)).toEqual([valid, valid, claimed]);
  });
});
