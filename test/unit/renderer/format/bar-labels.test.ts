/**
 * renderer/src/format/bar-labels.ts: a bar chart's labels get room for the longest of them, so a month's
 * day names never run into each other; short labels keep the least room.
 */
import { describe, expect, it } from 'vitest';
import { labelSpace } from '../../../../renderer/src/format/bar-labels';

describe('labelSpace', () => {
  it('gives the longest label its width and a gap, never less than the least room', () => {
    const month = ['Sun, Nov 1', 'Mon, Nov 2', 'Wed, Nov 11'];
    expect(labelSpace(month)).toBeGreaterThanOrEqual('Wed, Nov 11'.length * 7);
    expect(labelSpace(month)).toBeGreaterThan(labelSpace(['Mon', 'Tue']));
    expect(labelSpace(['1', '2'])).toBe(48);
    expect(labelSpace([])).toBe(48);
  });
});
