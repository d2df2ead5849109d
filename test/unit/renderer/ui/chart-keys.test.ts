import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cursorIndexAfter, zoomedRange } from '../../../../renderer/src/ui/chart-keys';

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

describe('zoomedRange (zooming a chart from the keyboard)', () => {
  const whole = { min: 0, max: 86_400_000 };

  it('halves the shown range around the cursor with +, doubles it with -, and ignores other keys', () => {
    expect(zoomedRange('+', whole, whole, 43_200_000)).toEqual({ min: 21_600_000, max: 64_800_000 });
    expect(zoomedRange('=', whole, whole, null)).toEqual({ min: 21_600_000, max: 64_800_000 });
    expect(zoomedRange('-', { min: 21_600_000, max: 64_800_000 }, whole, null)).toEqual(whole);
    expect(zoomedRange('a', whole, whole, null)).toBeUndefined();
  });

  it('stays within the whole range and over a minute, whatever the keys (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('+', '-'), { maxLength: 40 }), fc.option(fc.integer({ min: 0, max: whole.max }), { nil: null }), (keys, at) => {
        let shown = whole;
        for (const key of keys) {
          shown = zoomedRange(key, shown, whole, at)!;
          expect(shown.min).toBeGreaterThanOrEqual(whole.min);
          expect(shown.max).toBeLessThanOrEqual(whole.max);
          expect(shown.max - shown.min).toBeGreaterThanOrEqual(60_000 - 1e-6);
        }
      }),
    );
  });
});
