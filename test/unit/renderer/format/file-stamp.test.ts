import { describe, expect, it } from 'vitest';
import { fileStamp } from '../../../../renderer/src/format/file-stamp';

describe('fileStamp (when an exported file was made, in its name)', () => {
  it('is the UTC time to the second, without colons', () => {
    expect(fileStamp(new Date('2026-11-26T17:05:09.123Z'))).toBe('2026-11-26T17-05-09');
  });
});
