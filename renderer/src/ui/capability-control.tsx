/**
 * One capability of a device card, as a control that fits its kind: a switch for setable booleans, a
 * slider for setable numbers with a range (a light's hue, saturation and colour temperature on a track
 * that shows the colours), Open / Stop / Close buttons for window coverings, a choice for other setable
 * enums, and the value as text for the rest. The value shown is the user's pending one when there is one; every value carries its
 * last-updated time on hover. Controls commit deliberately (a slider on release or key, not per pixel).
 * While the hub is not live a control disabled for that says why (its tooltip, and `aria-describedby`
 * to the banner's sentence), and the value says when it was last confirmed: "21.4 °C · 2 min ago".
 */
import { memo, useState } from 'react';
import type { CapabilityValue } from '../../../common/ipc-contract';
import type { CapabilityState } from '../../../common/wire';
import { capabilityLabel, formatCapabilityValue } from '../format/format-capability';
import { formatFetchedAt } from '../format/hub-labels';
import { type SliderScale, sliderScale } from '../format/slider-scale';
import type { PendingValue } from '../stores/open-hub-store';
import { lastConfirmed } from '../format/relative-time';
import type { Blocked } from './not-live-context';
import { useAgo } from './slow-clock';

export interface CapabilityControlProps {
  state: CapabilityState;
  pending: PendingValue | undefined;
  /** Set when the control may not be used (no permission, device unavailable, hub not live). */
  disabled: boolean;
  /** Why changes cannot be sent while the hub is not live, and the id of the element that says so. */
  blocked?: Blocked | undefined;
  /** While the hub is not live: when the shown values were last confirmed (null: unknown); undefined while live. */
  confirmedAt?: number | null | undefined;
  onChange(capabilityId: string, value: CapabilityValue): void;
}

export const CapabilityControl = memo(function CapabilityControl({ state, pending, disabled, blocked, confirmedAt, onChange }: CapabilityControlProps) {
  const value = pending ? pending.value : state.value;
  const label = state.title || state.id;
  const alarm = state.id.startsWith('alarm_') && value === true;
  const updated = state.lastUpdated && formatFetchedAt(state.lastUpdated);
  const set = (next: CapabilityValue) => onChange(state.id, next);
  const scale = state.type === 'number' && state.setable ? sliderScale(state) : null;
  /** The reason on the control itself: its tooltip, and what a screen reader hears after its name. */
  const why = blocked && { title: blocked.reason, 'aria-describedby': blocked.id };
  const confirmed = confirmedAt === undefined ? null : lastConfirmed(state.lastUpdated, confirmedAt);

  let control;
  if (state.setable && state.type === 'boolean') {
    control = (
      <button type="button" role="switch" className="switch" aria-label={label} aria-checked={value === true} disabled={disabled} {...why} onClick={() => set(value !== true)}>
        <span className="switch-thumb" aria-hidden="true" />
        <span className="switch-text">{formatCapabilityValue(state, value)}</span>
      </button>
    );
  } else if (scale) {
    control = <CapabilitySlider state={state} value={value} scale={scale} label={label} disabled={disabled} why={why} onCommit={set} />;
  } else if (state.setable && isCoveringsState(state)) {
    control = <CoveringButtons value={value} label={label} disabled={disabled} why={why} onChoose={set} />;
  } else if (state.setable && state.type === 'enum' && state.values && state.values.length > 0) {
    control = (
      <select aria-label={label} value={typeof value === 'string' ? value : ''} disabled={disabled} {...why} onChange={(event) => set(event.target.value)}>
        {typeof value !== 'string' && <option value="">Unknown</option>}
        {state.values.map((option) => (
          <option key={option.id} value={option.id}>
            {option.title}
          </option>
        ))}
      </select>
    );
  } else {
    control = formatCapabilityValue(state, value);
  }

  return (
    <div className="capability" data-pending={pending !== undefined} data-alarm={alarm} title={updated ? `Updated ${updated}` : undefined}>
      <dt>{capabilityLabel(state)}</dt>
      <dd className={scale ? 'with-slider' : undefined}>
        {control}
        {alarm && <span className="alarm-badge">Alarm</span>}
        {confirmed !== null && <ConfirmedAgo at={confirmed} />}
        {pending && <span className="pending-mark" aria-label="Not confirmed yet" role="img" />}
      </dd>
    </div>
  );
});

/** "· 2 min ago" after a value, kept current (slow-clock.ts); read as "last confirmed 2 min ago". */
function ConfirmedAgo({ at }: { at: number }) {
  const ago = useAgo(at);
  return (
    <span className="value-age" title={`Last confirmed ${new Date(at).toLocaleString()}`}>
      <span aria-hidden="true">· </span>
      <span className="visually-hidden">last confirmed </span>
      {ago}
    </span>
  );
}

/** A disabled control's reason: its tooltip and description (see `why` above). */
type Why = { title: string; 'aria-describedby': string } | undefined;

interface SliderProps {
  state: CapabilityState;
  value: CapabilityState['value'];
  scale: SliderScale;
  label: string;
  disabled: boolean;
  why: Why;
  onCommit(value: number): void;
}

/** While dragging only the draft moves; the change is sent once, on release or after a key. */
function CapabilitySlider({ state, value, scale, label, disabled, why, onCommit }: SliderProps) {
  const [draft, setDraft] = useState<number | null>(null);
  const current = typeof value === 'number' ? value : null;
  const position = draft ?? scale.toSlider(current ?? scale.fromSlider(scale.min));
  const shown = draft === null ? value : scale.fromSlider(draft);
  const text = formatCapabilityValue(state, shown);
  const commit = () => {
    if (draft === null) return;
    setDraft(null);
    const next = scale.fromSlider(draft);
    if (next !== current) onCommit(next);
  };
  return (
    <span className="slider" data-capability={state.id}>
      {state.id === 'light_hue' && <span className="colour-swatch" aria-hidden="true" />}
      <input
        type="range"
        aria-label={label}
        aria-valuetext={text}
        min={scale.min}
        max={scale.max}
        step={scale.step}
        value={position}
        disabled={disabled}
        {...why}
        onChange={(event) => setDraft(Number(event.target.value))}
        onPointerUp={commit}
        onKeyUp={commit}
        onBlur={commit}
      />
      <output>{text}</output>
    </span>
  );
}

/** Window coverings move up, stop or move down (`windowcoverings_state`): three buttons, as on a wall switch. */
const COVERING_MOVES = [
  { id: 'up', text: 'Open', glyph: '▲' },
  { id: 'idle', text: 'Stop', glyph: '■' },
  { id: 'down', text: 'Close', glyph: '▼' },
] as const;

function isCoveringsState(state: CapabilityState): boolean {
  const ids = new Set(state.values?.map((option) => option.id));
  return state.id === 'windowcoverings_state' && state.type === 'enum' && COVERING_MOVES.every((move) => ids.has(move.id));
}

function CoveringButtons({ value, label, disabled, why, onChoose }: { value: CapabilityState['value']; label: string; disabled: boolean; why: Why; onChoose(value: string): void }) {
  return (
    <span className="segmented" role="group" aria-label={label}>
      {COVERING_MOVES.map((move) => (
        <button key={move.id} type="button" aria-pressed={value === move.id} disabled={disabled} {...why} onClick={() => onChoose(move.id)}>
          <span aria-hidden="true">{move.glyph}</span> {move.text}
        </button>
      ))}
    </span>
  );
}
