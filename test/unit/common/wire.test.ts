import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HubRecordSchema } from '../../../common/wire';

const record = { _id: 'hub-1', name: 'Home', platform: 'local', localUrl: null, localUrlSecure: null, remoteUrl: 'https://remote.test' };

describe('the hub record’s identity key (a field beyond the interface, from the cloud)', () => {
  it('is read when it is an Ed25519 public JWK', () => {
    const key = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    expect(HubRecordSchema.parse({ ...record, identityKey: key }).identityKey).toEqual({ kty: 'OKP', crv: 'Ed25519', x: key.x });
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['another curve', { kty: 'OKP', crv: 'X25519', x: 'A'.repeat(43) }],
    ['an EC key', { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) }],
    ['a short x', { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' }],
    ['a string', 'not a key'],
  ])('reads as no key when %s, without refusing the record (the hub then cannot prove who it is)', (_what, identityKey) => {
    const parsed = HubRecordSchema.parse({ ...record, identityKey });
    expect(parsed.identityKey ?? null).toBeNull();
    expect(parsed._id).toBe('hub-1');
  });
});
