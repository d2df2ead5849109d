import { describe, expect, it } from 'vitest';
import { liveLabel } from '../../../../renderer/src/format/live-label';

describe('live label', () => {
  it('says whether the view is live and, if not, why or when it retries', () => {
    expect(liveLabel({ state: 'live', since: 'x' }, 0)).toBe('Live');
    expect(liveLabel({ state: 'connecting' }, 0)).toBe('Connecting…');
    expect(liveLabel({ state: 'reconnecting', attempt: 2, nextRetryAt: 10_000, reason: 'lost' }, 6_200)).toBe('Reconnecting in 4 s…');
    expect(liveLabel({ state: 'reconnecting', attempt: 2, nextRetryAt: 10_000, reason: 'lost' }, 11_000)).toBe('Reconnecting…');
    expect(liveLabel({ state: 'offline', reason: 'You signed out.' }, 0)).toBe('Not live: You signed out.');
  });
});
