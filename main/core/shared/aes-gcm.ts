/**
 * AES-256-GCM on bytes, in one record format: a version byte, the 12-byte IV, the 16-byte tag, then
 * the ciphertext. A fresh random IV for every record; opening checks the tag, so a record that was
 * changed, cut, or sealed with another key throws instead of giving wrong bytes. Used by the browser
 * host's cipher (its tokens) and by the webhook history (its files).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const AES_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Version byte in front of every record, so the format can change without guessing. */
const FORMAT_V1 = 1;
/** What a record adds to its plaintext. */
export const SEAL_OVERHEAD_BYTES = 1 + IV_BYTES + TAG_BYTES;

export function sealBytes(key: Buffer, plaintext: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.of(FORMAT_V1), iv, cipher.getAuthTag(), body]);
}

/** Throws when the record is not one, was changed, or was sealed with another key. */
export function openBytes(key: Buffer, record: Buffer): Buffer {
  if (record.length < SEAL_OVERHEAD_BYTES || record[0] !== FORMAT_V1) throw new Error('not an encrypted record');
  const iv = record.subarray(1, 1 + IV_BYTES);
  const tag = record.subarray(1 + IV_BYTES, SEAL_OVERHEAD_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  const body = decipher.update(record.subarray(SEAL_OVERHEAD_BYTES));
  // final() throws when the tag does not match. It has nothing more for GCM, a stream mode: the
  // plaintext is not copied again (a history's checkpoint is 100 MB of it).
  const rest = decipher.final();
  return rest.length === 0 ? body : Buffer.concat([body, rest]);
}
