import { describe, expect, it } from 'vitest';
import { flowResultLabel, flowStartedAtLabel } from '../../../../renderer/src/format/flow-labels';
import { formatFetchedAt } from '../../../../renderer/src/format/hub-labels';

describe('flow labels', () => {
  it('says the result of the last start', () => {
    expect(flowResultLabel({ status: 'starting' })).toBe('Starting…');
    expect(flowResultLabel({ status: 'started', at: '2026-11-23T21:04:09.000Z' })).toBe('Started');
    expect(flowResultLabel({ status: 'failed', message: 'The hub refused it.' })).toBe('Not started: The hub refused it.');
  });

  it('says when the last start was accepted, and nothing before or without a time', () => {
    const at = '2026-11-23T21:04:09.000Z';
    expect(flowStartedAtLabel({ status: 'started', at })).toBe(`at ${formatFetchedAt(at)}`);
    expect(flowStartedAtLabel(undefined)).toBeNull();
    expect(flowStartedAtLabel({ status: 'starting' })).toBeNull();
    expect(flowStartedAtLabel({ status: 'failed', message: 'no' })).toBeNull();
    expect(flowStartedAtLabel({ status: 'started', at: 'not a time' })).toBeNull();
  });
});
