import { describe, expect, it } from 'vitest';
import { type LiveState, LiveStatusSchema } from '../../../common/ipc-contract';
import { liveWords } from '../../../common/live-words';

const retrying = (cause: Extract<LiveState, { kind: 'reconnecting' }>['cause']): LiveState => ({
  kind: 'reconnecting',
  attempt: 2,
  nextAttemptAt: 10_000,
  cause,
});

describe('live words', () => {
  // One row per state: the indicator's status (beside the hub's devices, where the banner says the rest), and the sentence of the banner, the tray and notifications.
  it.each<[LiveState, string, string]>([
    [{ kind: 'live', since: 'x' }, 'Live', 'Home is live'],
    [{ kind: 'connecting' }, 'Connecting…', 'Connecting to Home…'],
    [{ kind: 'not-responding', since: 0 }, 'Not live', 'Home is not responding — waiting for it'],
    [retrying('hub-not-answering'), 'Not live', 'Home is not responding — trying again in 4 s'],
    [retrying('cloud-unreachable'), 'Not live', 'Hubdesk can’t reach the cloud — trying again in 4 s'],
    [retrying('offline'), 'Not live', 'This computer is offline — trying again in 4 s'],
    [retrying('refused'), 'Not live', 'Home turned the connection down — trying again in 4 s'],
    [retrying('session-ended'), 'Not live', 'Home ended the session — trying again in 4 s'],
    [{ kind: 'closed' }, 'Not live', 'Live updates are off for Home'],
    [{ kind: 'signed-out' }, 'Not live', 'You are signed out'],
    [{ kind: 'hub-refused' }, 'Not live', 'Home refused Hubdesk access — sign out and in again to grant it'],
    [{ kind: 'hub-gone' }, 'Not live', 'Home is no longer in your account'],
    [{ kind: 'no-realtime' }, 'Not live', 'Home doesn’t send live updates — reload to see changes'],
    [{ kind: 'not-opened', code: 'signed-out' }, 'Not live', 'You are signed out'],
    [{ kind: 'not-opened', code: 'internal' }, 'Not live', 'Hubdesk didn’t hear back while opening Home — try again'],
    [{ kind: 'not-opened', code: 'hub-unreachable' }, 'Not live', 'Hubdesk couldn’t open Home — try again'],
  ])('%j', (state, status, sentence) => {
    expect(liveWords(state, 'Home', 6_200)).toMatchObject({ status, sentence });
  });

  // Why a control is disabled: the obstacle, in the same words as the sentence where there is one.
  it.each<[LiveState, string | null]>([
    [{ kind: 'live', since: 'x' }, null],
    [{ kind: 'no-realtime' }, null],
    [{ kind: 'connecting' }, 'Hubdesk is still connecting to Home, so changes can’t be sent now'],
    [{ kind: 'not-responding', since: 0 }, 'Home is not responding, so changes can’t be sent now'],
    [retrying('hub-not-answering'), 'Home is not responding, so changes can’t be sent now'],
    [retrying('cloud-unreachable'), 'Hubdesk can’t reach the cloud, so changes can’t be sent now'],
    [retrying('offline'), 'This computer is offline, so changes can’t be sent now'],
    [retrying('refused'), 'Home turned the connection down, so changes can’t be sent now'],
    [retrying('session-ended'), 'Home ended the session, so changes can’t be sent now'],
    [{ kind: 'closed' }, 'Hubdesk closed Home, so changes can’t be sent now'],
    [{ kind: 'signed-out' }, 'You are signed out, so changes can’t be sent now'],
    [{ kind: 'hub-refused' }, 'Home refused Hubdesk access, so changes can’t be sent now'],
    [{ kind: 'hub-gone' }, 'Home is no longer in your account, so changes can’t be sent now'],
    [{ kind: 'not-opened', code: 'hub-unreachable' }, 'Hubdesk couldn’t open Home, so changes can’t be sent now'],
    [{ kind: 'not-opened', code: 'signed-out' }, 'You are signed out, so changes can’t be sent now'],
  ])('blocked: %j', (state, blocked) => {
    expect(liveWords(state, 'Home', 6_200).blocked).toBe(blocked);
  });

  it('counts down to the next attempt, says "now" once it is due, and without a clock says Hubdesk keeps trying', () => {
    expect(liveWords(retrying('hub-not-answering'), 'Home', 9_001).sentence).toBe('Home is not responding — trying again in 1 s');
    expect(liveWords(retrying('hub-not-answering'), 'Home', 11_000).sentence).toBe('Home is not responding — trying again now');
    expect(liveWords(retrying('hub-not-answering'), 'Home').sentence).toBe('Home is not responding — Hubdesk keeps trying');
  });

  it('has words for every state of the contract', () => {
    const kinds = LiveStatusSchema.shape.state.options.map((option) => option.shape.kind.value);
    for (const kind of kinds) expect(kind, kind).not.toBe('');
    expect(new Set(kinds)).toEqual(
      new Set(['connecting', 'live', 'not-responding', 'reconnecting', 'closed', 'signed-out', 'hub-refused', 'hub-gone', 'no-realtime', 'not-opened']),
    );
  });
});

describe('the live status on the wire', () => {
  it('carries a structured state: a free-text reason or an unknown cause does not pass', () => {
    expect(LiveStatusSchema.safeParse({ hubId: 'h', state: { kind: 'reconnecting', attempt: 1, nextAttemptAt: 5, cause: 'offline' } }).success).toBe(true);
    expect(LiveStatusSchema.safeParse({ hubId: 'h', state: { kind: 'reconnecting', attempt: 1, nextAttemptAt: 5, cause: 'The hub was lost.' } }).success).toBe(
      false,
    );
    expect(LiveStatusSchema.safeParse({ hubId: 'h', state: { state: 'offline', reason: 'You are signed out.' } }).success).toBe(false);
    expect(LiveStatusSchema.safeParse({ hubId: 'h', state: { kind: 'reconnecting', attempt: 0, nextAttemptAt: 5, cause: 'offline' } }).success).toBe(false);
    expect(LiveStatusSchema.safeParse({ hubId: 'h', state: { kind: 'not-opened', code: 'no-such-code' } }).success).toBe(false);
  });
});
