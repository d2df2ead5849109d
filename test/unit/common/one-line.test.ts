/** The one sanitiser of shown names (docs/security.md, "Names from hubs, clouds and files"). */
import { describe, expect, it } from 'vitest';
import { oneLine, ShownNameSchema } from '../../../common/one-line';
import { HubRecordSchema } from '../../../common/wire';

/** Every character the review found kept, and the rest of the bidi and invisible set. */
const INVISIBLE = [
  0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x180b, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060,
  0x2061, 0x2062, 0x2063, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0x3164, 0xfeff, 0xffa0, 0xfff9, 0xfffa,
  0xfffb, 0x1bca0, 0x1d173, 0xe0000, 0xe0001, 0xe0020, 0xe0041, 0xe007f,
];

describe('oneLine', () => {
  it.each(INVISIBLE.map((code) => [`U+${code.toString(16).toUpperCase().padStart(4, '0')}`, String.fromCodePoint(code)]))('removes %s', (_, character) => {
    expect(oneLine(`Ho${character}me`, 50)).toBe('Home');
    expect(oneLine(`${character}${character}`, 50, 'Unnamed')).toBe('Unnamed');
  });

  it('turns controls and line separators into one space', () => {
    expect(oneLine('Living\nroom\u2028\u0085\tlamp\u0007', 50)).toBe('Living room lamp');
  });

  it('keeps what shows: letters of every script, emoji with their variation selectors', () => {
    expect(oneLine('Küche ☕️ غرفة 客厅 \u{1F1F3}\u{1F1F4}', 50)).toBe('Küche ☕️ غرفة 客厅 \u{1F1F3}\u{1F1F4}');
    expect(oneLine('葛\u{E0100}', 50)).toBe('葛\u{E0100}');
  });

  it('keeps a joiner inside an emoji sequence only', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(oneLine(`Family ${family}`, 50)).toBe(`Family ${family}`);
    expect(oneLine('\u{1F3F3}\uFE0F\u200D\u{1F308}', 50)).toBe('\u{1F3F3}\uFE0F\u200D\u{1F308}');
    expect(oneLine('Ho\u200Dme \u{1F468}\u200D', 50)).toBe('Home \u{1F468}');
  });

  it('cuts by code point, never half a pair', () => {
    expect(oneLine('😀'.repeat(10), 4)).toBe('😀😀😀…');
  });
});

describe('names as they are parsed', () => {
  it('a hub record’s name with a right-to-left override arrives without it', () => {
    const record = HubRecordSchema.parse({ _id: 'h1', name: 'Home\u202Egnp.exe', platform: 'local', localUrl: null, localUrlSecure: null, remoteUrl: null });
    expect(record.name).toBe('Homegnp.exe');
    expect(ShownNameSchema.parse('x'.repeat(500))).toHaveLength(200);
  });
});
