import { describe, expect, it } from 'vitest';
import { signOutSummary } from '../../../../renderer/src/format/sign-out-summary';

describe('what Sign out says it ends', () => {
  it('names the hubs, up to three, and counts more', () => {
    expect(signOutSummary(['Home'], 0)).toBe('This disconnects Hubdesk from Home and ends the sessions it holds on it.');
    expect(signOutSummary(['Home', 'Holiday cabin'], 0)).toBe('This disconnects Hubdesk from your 2 hubs (Home and Holiday cabin) and ends the sessions it holds on them.');
    expect(signOutSummary(['A', 'B', 'C'], 0)).toContain('your 3 hubs (A, B and C)');
    expect(signOutSummary(['A', 'B', 'C', 'D'], 0)).toBe('This disconnects Hubdesk from your 4 hubs and ends the sessions it holds on them.');
  });

  it('says so when the hubs are not listed, or there are none', () => {
    expect(signOutSummary(undefined, 0)).toBe('This disconnects Hubdesk from your hubs and ends the sessions it holds on them.');
    expect(signOutSummary([], 0)).toBe('This signs Hubdesk out of your cloud account.');
  });

  it('says that webhooks keep listening', () => {
    expect(signOutSummary(['Home'], 1)).toMatch(/ Your webhook keeps listening: webhooks need no sign-in\.$/);
    expect(signOutSummary(['Home'], 2)).toMatch(/ Your 2 webhooks keep listening: webhooks need no sign-in\.$/);
  });
});
