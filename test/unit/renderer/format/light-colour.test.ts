import { describe, expect, it } from 'vitest';
import { COLOUR_SWATCHES, colourToHex, hexToColour, swatchOf } from '../../../../renderer/src/format/light-colour';

describe('a light’s colour', () => {
  it('turns hue and saturation into the picker’s #rrggbb and back, in the hub’s steps', () => {
    expect(colourToHex({ hue: 0, saturation: 1 })).toBe('#ff0000');
    expect(colourToHex({ hue: 1 / 3, saturation: 1 })).toBe('#00ff00');
    expect(colourToHex({ hue: 0.5, saturation: 0 })).toBe('#ffffff');
    expect(hexToColour('#0000ff')).toEqual({ hue: 0.67, saturation: 1 });
    expect(hexToColour('#FF8080')).toEqual({ hue: 0, saturation: 0.5 });
    expect(hexToColour('#ff0001')).toEqual({ hue: 0, saturation: 1 }); // a hue of 1 wraps to 0
    for (const swatch of COLOUR_SWATCHES)
      expect(hexToColour(colourToHex(swatch)), swatch.name).toEqual({
        hue: expect.closeTo(swatch.hue, 1.5),
        saturation: expect.closeTo(swatch.saturation, 1.5),
      });
  });

  it('refuses anything but #rrggbb', () => {
    for (const text of ['', 'red', '#fff', '#gggggg', '#ff000000', 'ff0000']) expect(hexToColour(text), text).toBeNull();
  });

  it('knows a swatch by its colour', () => {
    expect(swatchOf({ hue: 0.66, saturation: 1 })).toBe('Blue');
    expect(swatchOf({ hue: 0.1, saturation: 0.4 })).toBeNull();
  });
});
