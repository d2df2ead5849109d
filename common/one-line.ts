/**
 * The one sanitiser for text from a hub, a cloud or a file that the app shows or notifies: a hub's,
 * device's, zone's, capability's or flow's name, the user's name, an imported file's name, a webhook's
 * name, a peer's close reason. Names must not spoof one another, hide text or break the line
 * (docs/security.md, "Names from hubs, clouds and files"). The wire schemas apply it to every name as
 * it is parsed (ShownNameSchema), so views, the tray and notifications all carry the same text.
 */
import { z } from 'zod';

/** Characters that end a line: C0 and C1 controls, the line and paragraph separators. Each becomes a space. */
const LINE_BREAKERS = /[\p{Cc}\u2028\u2029]/gu;
/**
 * Invisible characters: Unicode's format characters (Cf) and the rest of Default_Ignorable_Code_Point.
 * Among them the bidi controls (U+061C, U+200E–200F, U+202A–202E, U+2066–2069), the zero-width ones
 * (U+200B–200D, U+2060–2064, U+FEFF), the soft hyphen U+00AD, U+034F, U+180E, U+206A–206F,
 * U+FFF9–FFFB, the tag characters U+E0000–E007F and the Hangul fillers (U+115F, U+1160, U+3164,
 * U+FFA0). Removed, as they do not show.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** Default-ignorable but kept: a variation selector picks how the emoji or ideograph before it looks. */
const VARIATION_SELECTOR = /^[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]$/u;
/**
 * A zero-width joiner between two emoji (each with its variation selector) is kept: it makes one emoji
 * of them (a family, a rainbow flag). Between letters it would only make two names look alike.
 */
const EMOJI_BEFORE = /\p{Extended_Pictographic}[\uFE0E\uFE0F]?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;
const joinsEmoji = (text: string, at: number) => EMOJI_BEFORE.test(text.slice(Math.max(0, at - 3), at)) && EMOJI_AFTER.test(text.slice(at + 1, at + 3));

/** One safe line: no control or invisible characters, whitespace collapsed, at most `max` characters (by code point), `fallback` when nothing is left. */
export function oneLine(raw: string, max: number, fallback = ''): string {
  const flat = raw
    .replace(LINE_BREAKERS, ' ')
    .replace(INVISIBLE, (c: string, at: number, text: string) => (VARIATION_SELECTOR.test(c) || (c === '\u200D' && joinsEmoji(text, at)) ? c : ''))
    .replace(/\s+/g, ' ')
    .trim();
  const text = flat === '' ? fallback : flat;
  const characters = [...text]; // by code point: never half a surrogate pair
  return characters.length <= max
    ? text
    : `${characters
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** A name longer than this is cut (with "…"); no name shown anywhere needs more. */
export const SHOWN_NAME_MAX = 200;
/** A name as a peer sends it, made one safe line as it is parsed. */
export const ShownNameSchema = z.string().transform((raw) => oneLine(raw, SHOWN_NAME_MAX));
