/**
 * Text that came from a hub (a device or hub name), made safe to show outside the page: in a tray menu,
 * a native notification. Names must not spoof one another or break the line.
 */

/** Control characters, line separators and the invisible marks that reorder text. */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]+/g;

/** One safe line: no control characters, whitespace collapsed, at most `max` characters (by code point), `fallback` when nothing is left. */
export function oneLine(raw: string, max: number, fallback = ''): string {
  const flat = raw.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  const text = flat === '' ? fallback : flat;
  const characters = [...text]; // by code point: never half a surrogate pair
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('').trimEnd()}…`;
}
