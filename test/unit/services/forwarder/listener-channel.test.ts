/**
 * The listener channel's cap on a registration's `data` (docs/services.md, "Forwarder decisions",
 * listener channel): refused over MAX_REGISTRATION_DATA_BYTES of JSON with a close reason that names the
 * size and the limit, and fits a WebSocket close frame.
 */
import { describe, expect, it } from 'vitest';
import { MAX_REGISTRATION_DATA_BYTES } from '../../../../common/webhook-protocol';
import { registrationDataRefusal } from '../../../../services/forwarder/listener-channel';

/** `{"$key":"x…x"}` of exactly `bytes` bytes of JSON. */
const dataOf = (bytes: number) => ({ $key: 'x'.repeat(bytes - '{"$key":""}'.length) });

describe('registrationDataRefusal', () => {
  it('lets no data and data of up to the limit through', () => {
    expect(registrationDataRefusal(undefined)).toBeUndefined();
    expect(registrationDataRefusal({})).toBeUndefined();
    expect(Buffer.byteLength(JSON.stringify(dataOf(MAX_REGISTRATION_DATA_BYTES)))).toBe(MAX_REGISTRATION_DATA_BYTES);
    expect(registrationDataRefusal(dataOf(MAX_REGISTRATION_DATA_BYTES))).toBeUndefined();
  });

  it('refuses one byte more, saying how large the data is and what the limit is', () => {
    const reason = registrationDataRefusal(dataOf(MAX_REGISTRATION_DATA_BYTES + 1));
    expect(reason).toBe(`registration data is ${MAX_REGISTRATION_DATA_BYTES + 1} bytes of JSON; the limit is ${MAX_REGISTRATION_DATA_BYTES}`);
    // A WebSocket close reason holds at most 123 bytes.
    expect(Buffer.byteLength(reason!)).toBeLessThanOrEqual(123);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const characters = Math.floor(MAX_REGISTRATION_DATA_BYTES / 3);
    const reason = registrationDataRefusal({ $keys: ['€'.repeat(characters)] });
    expect(reason).toContain(`is ${characters * 3 + '{"$keys":[""]}'.length} bytes`);
  });
});
