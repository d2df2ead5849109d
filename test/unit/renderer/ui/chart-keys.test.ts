import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cursorIndexAfter } from '../../../../renderer/src/ui/chart-keys';

describe('cursorIndexAfter (reading a chart from the keyboard)', () => {
  it('steps one point with the arrows and stops at the ends', () => {
    expect(cursorIndexAfter('ArrowRight', 3, 10)).toBe(4);
    expect(cursorIndexAfter('ArrowLeft', 3, 10)).toBe(2);
    expect(cursorIndexAfter('ArrowRight', 9, 10)).toBe(9);
    expect(cursorIndexAfter('ArrowLeft', 0, 10)).toBe(0);
  });

  it('starts at the last point going left and at the first going right when there is no cursor yet', () => {
    expect(cursorIndexAfter('ArrowLeft', null, 10)).toBe(9);
    expect(cursorIndexAfter('ArrowRight', null, 10)).toBe(0);
    expect(cursorIndexAfter('PageUp', null, 100)).toBe(95);
  });

  it('jumps a twentieth of the points with Page Up/Down and to the ends with Home/End', () => {
    expect(cursorIndexAfter('PageDown', 10, 200)).toBe(20);
    expect(cursorIndexAfter('PageUp', 10, 200)).toBe(0);
    expect(cursorIndexAfter('Home', 57, 200)).toBe(0);
    expect(cursorIndexAfter('End', 57, 200)).toBe(199);
  });

  it('ignores other keys and charts without points', () => {
    expect(cursorIndexAfter('Enter', 3, 10)).toBeUndefined();
    expect(cursorIndexAfter('a', null, 10)).toBeUndefined();
    expect(cursorIndexAfter('ArrowRight', null, 0)).toBeUndefined();
  });

  it('always lands on a point of the chart', () => {
    const keys = ['ArrowLeft', 'ArrowRight', 'PageUp', 'PageDown', 'Home', 'End'];
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.integer({ min: 1, max: 100_000 }), fc.option(fc.nat()), (key, count, cursor) => {
        const current = cursor === null ? null : cursor % count;
        const index = cursorIndexAfter(key, current, count)!;
        expect(Number.isInteger(index) && index >= 0 && index < count).toBe(true);
      }),
    );
  });
});
