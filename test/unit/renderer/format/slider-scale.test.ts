import { describe, expect, it } from 'vitest';
import type { CapabilityState } from '../../../../common/wire';
import { fractionToPercent, percentToFraction, roundToStep, sliderScale } from '../../../../renderer/src/format/slider-scale';

const number = (overrides: Partial<CapabilityState>): CapabilityState => ({
  id: 'target_temperature',
  type: 'number',
  title: 'Target',
  value: 20,
  getable: true,
  setable: true,
  lastUpdated: null,
  ...overrides,
});

describe('slider scale', () => {
  it('slides fractions in percent and sends fractions rounded to the step', () => {
    const scale = sliderScale(number({ id: 'dim', min: 0, max: 1, step: 0.01, units: '%' }))!;
    expect([scale.min, scale.max, scale.step]).toEqual([0, 100, 1]);
    expect(scale.toSlider(0.29)).toBe(29);
    expect(scale.fromSlider(29)).toBe(0.29);
    expect(scale.fromSlider(33.4)).toBe(0.33);
    expect(scale.fromSlider(140)).toBe(1);
  });

  it('slides other numbers in their own units, clamped and rounded to the step', () => {
    const scale = sliderScale(number({ min: 5, max: 35, step: 0.5 }))!;
    expect([scale.min, scale.max, scale.step]).toEqual([5, 35, 0.5]);
    expect(scale.fromSlider(21.3)).toBe(21.5);
    expect(scale.fromSlider(2)).toBe(5);
    expect(scale.toSlider(40)).toBe(35);
  });

  it('has no slider without a usable range', () => {
    expect(sliderScale(number({ min: undefined, max: undefined }))).toBeNull();
    expect(sliderScale(number({ min: 10, max: 10 }))).toBeNull();
    // A dim level is a fraction even when the hub leaves out its range.
    expect(sliderScale(number({ id: 'dim', min: undefined, max: undefined }))?.max).toBe(100);
  });

  it('converts and rounds without float noise', () => {
    expect(fractionToPercent(0.07)).toBe(7);
    expect(percentToFraction(7)).toBe(0.07);
    expect(roundToStep(0.1 + 0.2, 0, 0.1)).toBe(0.3);
    expect(roundToStep(7.26, 5, 0.5)).toBe(7.5);
    expect(roundToStep(7.26, 5, 0)).toBe(7.26);
  });
});
