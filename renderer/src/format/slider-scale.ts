/**
 * How a number capability maps onto a slider. Fractions 0..1 (dim levels, positions…) slide in whole
 * percent, as people read them; other numbers slide in their own units. Values leaving the slider are
 * clamped to the capability's range and rounded to its step, so the hub never sees 0.30000000000000004.
 */
import type { CapabilityState } from '../../../common/wire';
import { isFraction } from './format-capability';

export interface SliderScale {
  min: number;
  max: number;
  step: number;
  /** The slider position for a capability value. */
  toSlider(value: number): number;
  /** The capability value for a slider position (clamped, rounded to the step). */
  fromSlider(position: number): number;
}

/** A slider needs a range; without one (or with a broken one) the value is shown read-only. */
export function sliderScale(capability: CapabilityState): SliderScale | null {
  const fraction = isFraction(capability);
  const min = capability.min ?? (fraction ? 0 : undefined);
  const max = capability.max ?? (fraction ? 1 : undefined);
  if (min === undefined || max === undefined || !Number.isFinite(min) || !Number.isFinite(max) || max <= min) return null;
  const rawStep = capability.step !== undefined && capability.step > 0 ? capability.step : fraction ? 0.01 : (max - min) / 100;
  const clampToStep = (value: number) => roundToStep(clamp(value, min, max), min, rawStep);
  if (!fraction) return { min, max, step: rawStep, toSlider: clampToStep, fromSlider: clampToStep };
  return {
    min: fractionToPercent(min),
    max: fractionToPercent(max),
    step: fractionToPercent(rawStep),
    toSlider: (value) => fractionToPercent(clampToStep(value)),
    fromSlider: (position) => clampToStep(percentToFraction(position)),
  };
}

export const fractionToPercent = (fraction: number): number => tidy(fraction * 100);
export const percentToFraction = (percent: number): number => tidy(percent / 100);

/** Rounds to the nearest `min + k·step`, without the binary noise that float steps leave behind. */
export function roundToStep(value: number, min: number, step: number): number {
  if (!(step > 0)) return value;
  return tidy(min + Math.round((value - min) / step) * step);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

// Twelve significant digits is far beyond any capability's precision and drops the float noise.
function tidy(value: number): number {
  return Number.parseFloat(value.toPrecision(12));
}
