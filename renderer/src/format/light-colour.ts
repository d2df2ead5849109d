/**
 * A light's colour as people choose it (docs/device-controls.md, "Words per class"): named swatches
 * and a full picker, each setting hue and saturation together. The hub keeps both as fractions 0..1
 * (hue round the colour wheel); the picker speaks `#rrggbb` at full brightness (brightness is the
 * light's dim level, a control of its own). Pure; unit-tested in Node.
 */

export interface HueSaturation {
  hue: number;
  saturation: number;
}

/** The swatches offered, from warm white to purple: names a person would say. */
export const COLOUR_SWATCHES: readonly ({ name: string } & HueSaturation)[] = [
  { name: 'Warm white', hue: 0.1, saturation: 0.3 },
  { name: 'Red', hue: 0, saturation: 1 },
  { name: 'Orange', hue: 0.08, saturation: 1 },
  { name: 'Yellow', hue: 0.16, saturation: 1 },
  { name: 'Green', hue: 0.33, saturation: 1 },
  { name: 'Cyan', hue: 0.5, saturation: 1 },
  { name: 'Blue', hue: 0.66, saturation: 1 },
  { name: 'Purple', hue: 0.78, saturation: 1 },
  { name: 'Pink', hue: 0.9, saturation: 0.6 },
];

/** How close a colour must be to a swatch to count as it (a hundredth, the hub's step). */
const SAME_COLOUR = 0.005;

/** The swatch this colour is, if any. */
export function swatchOf(colour: HueSaturation): string | null {
  return (
    COLOUR_SWATCHES.find((swatch) => Math.abs(swatch.hue - colour.hue) < SAME_COLOUR && Math.abs(swatch.saturation - colour.saturation) < SAME_COLOUR)?.name ??
    null
  );
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));
/** The hub's fractions move in steps of 0.01. */
const toStep = (value: number) => Math.round(clamp01(value) * 100) / 100;

/** `#rrggbb` of a hue and saturation at full brightness (HSV). */
export function colourToHex({ hue, saturation }: HueSaturation): string {
  const h = clamp01(hue) * 6;
  const s = clamp01(saturation);
  const channel = (n: number) => {
    const k = (n + h) % 6;
    const value = 1 - s * Math.max(0, Math.min(k, 4 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(5)}${channel(3)}${channel(1)}`;
}

/** The hue and saturation (in the hub's steps) of `#rrggbb`; null for anything else. */
export function hexToColour(hex: string): HueSaturation | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return null;
  const [r, g, b] = match.slice(1).map((pair) => parseInt(pair, 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const range = max - Math.min(r, g, b);
  const saturation = max === 0 ? 0 : range / max;
  let hue = 0;
  if (range > 0) {
    if (max === r) hue = ((g - b) / range + 6) % 6;
    else if (max === g) hue = (b - r) / range + 2;
    else hue = (r - g) / range + 4;
  }
  // Hue 1 is hue 0 (red): the hub's range ends at 1, so a full turn wraps.
  return { hue: toStep(hue / 6) % 1, saturation: toStep(saturation) };
}
