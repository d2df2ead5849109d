/**
 * services/forwarder/spaced-while-behind.ts against a backlog it is told of: nothing is spaced while the
 * forwarder keeps up; while behind, each webhook is let in once per `spacing` accepting turns, each
 * webhook counted apart; a spacing of 0 spaces nothing.
 */
import { describe, expect, it } from 'vitest';
import { spacedWhileBehind } from '../../../../services/forwarder/spaced-while-behind';

function backlog() {
  return { behind: false, acceptingTurns: 0 };
}

describe('spacedWhileBehind', () => {
  it('lets everything in while the forwarder keeps up', () => {
    const state = backlog();
    const admit = spacedWhileBehind(state, 4);
    expect([admit('a'), admit('a'), admit('a')]).toEqual([true, true, true]);
  });

  it('while behind, lets each webhook in once per `spacing` accepting turns, and another webhook at once', () => {
    const state = { behind: true, acceptingTurns: 10 };
    const admit = spacedWhileBehind(state, 4);
    expect(admit('flood')).toBe(true);
    expect(admit('flood')).toBe(false);
    state.acceptingTurns = 13;
    expect(admit('flood')).toBe(false);
    expect(admit('other')).toBe(true);
    state.acceptingTurns = 14;
    expect(admit('flood')).toBe(true);
    expect(admit('other')).toBe(false);
  });

  it('forgets the last backlog once the forwarder caught up', () => {
    const state = { behind: true, acceptingTurns: 1 };
    const admit = spacedWhileBehind(state, 100);
    expect(admit('flood')).toBe(true);
    state.behind = false;
    expect(admit('flood')).toBe(true);
    state.behind = true;
    state.acceptingTurns = 2;
    expect(admit('flood')).toBe(true);
    expect(admit('flood')).toBe(false);
  });

  it('spaces nothing at 0, and refuses a spacing that is not a whole number of turns', () => {
    const admit = spacedWhileBehind({ behind: true, acceptingTurns: 5 }, 0);
    expect([admit('a'), admit('a')]).toEqual([true, true]);
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => spacedWhileBehind(backlog(), bad)).toThrow(RangeError);
  });
});
