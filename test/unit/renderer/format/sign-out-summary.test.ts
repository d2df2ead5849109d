import { describe, expect, it } from 'vitest';
import { signOutSummary } from '../../../../renderer/src/format/sign-out-summary';

const NONE = { all: 0, forAHub: 0 };

describe('what Sign out says it ends', () => {
  it('names the hubs, up to three, and counts more', () => {
    expect(signOutSummary(['Home'], NONE)).toBe('This disconnects Hubdesk from Home and ends the sessions it holds on it.');
    expect(signOutSummary(['Home', 'Holiday cabin'], NONE)).toBe(
      'This disconnects Hubdesk from your 2 hubs (Home and Holiday cabin) and ends the sessions it holds on them.',
    );
    expect(signOutSummary(['A', 'B', 'C'], NONE)).toContain('your 3 hubs (A, B and C)');
    expect(signOutSummary(['A', 'B', 'C', 'D'], NONE)).toBe('This disconnects Hubdesk from your 4 hubs and ends the sessions it holds on them.');
  });

  it('says so when the hubs are not listed, or there are none', () => {
    expect(signOutSummary(undefined, NONE)).toBe('This disconnects Hubdesk from your hubs and ends the sessions it holds on them.');
    expect(signOutSummary([], NONE)).toBe('This signs Hubdesk out of your cloud account.');
  });

  it('says that webhooks keep listening', () => {
    expect(signOutSummary(['Home'], { all: 1, forAHub: 0 })).toMatch(/ Your webhook keeps listening: webhooks need no sign-in\.$/);
    expect(signOutSummary(['Home'], { all: 2, forAHub: 0 })).toMatch(/ Your 2 webhooks keep listening: webhooks need no sign-in\.$/);
  });

  it('says that a webhook sent to a chosen hub pauses at its next reconnection until the next sign-in', () => {
    expect(signOutSummary(['Home'], { all: 1, forAHub: 1 })).toMatch(
      / Your webhook keeps listening\. It is paused at its next reconnection until you sign in again: the forwarder asks for proof of the hub each time\.$/,
    );
    expect(signOutSummary(['Home'], { all: 3, forAHub: 1 })).toContain(
      'Your 3 webhooks keep listening. The one sent to a chosen hub is paused at its next reconnection',
    );
    expect(signOutSummary(['Home'], { all: 3, forAHub: 2 })).toContain('The 2 sent to a chosen hub are paused at their next reconnection');
    expect(signOutSummary(['Home'], { all: 2, forAHub: 2 })).toContain('Your 2 webhooks keep listening. They are paused at their next reconnection');
  });
});
