/**
 * A light's colour as one control (format/light-colour.ts): swatches to press and a full picker, each
 * setting hue and saturation together (two changes, one per capability, sent at once). The picker's
 * change is sent when the user settles on a colour (its `change` event), not while dragging.
 */
import { useEffect, useRef, useState } from 'react';
import type { CapabilityValue } from '../../../common/ipc-contract';
import { COLOUR_SWATCHES, colourToHex, type HueSaturation, hexToColour, swatchOf } from '../format/light-colour';

interface ColourControlProps {
  deviceName: string;
  hue: number | null;
  saturation: number | null;
  canSetSaturation: boolean;
  disabled: boolean;
  why: { title: string; 'aria-describedby': string } | undefined;
  onChange(capabilityId: string, value: CapabilityValue): void;
}

export function ColourControl({ deviceName, hue, saturation, canSetSaturation, disabled, why, onChange }: ColourControlProps) {
  const current: HueSaturation = { hue: hue ?? 0, saturation: saturation ?? 1 };
  const chosen = hue === null ? null : swatchOf(current);
  const picker = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const apply = (colour: HueSaturation) => {
    if (colour.hue !== hue) onChange('light_hue', colour.hue);
    if (canSetSaturation && colour.saturation !== saturation) onChange('light_saturation', colour.saturation);
  };
  // React's onChange is the input event (every move in the picker); the DOM's change event is the choice.
  useEffect(() => {
    const input = picker.current;
    if (!input) return;
    const settle = () => {
      const colour = hexToColour(input.value);
      setDraft(null);
      if (colour) apply(colour);
    };
    input.addEventListener('change', settle);
    return () => input.removeEventListener('change', settle);
  });
  const hex = colourToHex(current);
  return (
    <span className="colour-control" role="group" aria-label={`Colour of ${deviceName}`}>
      {COLOUR_SWATCHES.map((swatch) => (
        <button
          key={swatch.name}
          type="button"
          className="colour-chip"
          aria-label={swatch.name}
          aria-pressed={chosen === swatch.name}
          title={swatch.name}
          disabled={disabled}
          {...why}
          style={{ background: colourToHex(swatch) }}
          onClick={() => apply(swatch)}
        />
      ))}
      <input
        ref={picker}
        type="color"
        className="colour-picker"
        aria-label="Any colour"
        title={chosen ?? hex}
        value={draft ?? hex}
        onChange={(event) => setDraft(event.target.value)}
        disabled={disabled}
        {...why}
      />
    </span>
  );
}
