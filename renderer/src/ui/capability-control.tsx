/**
 * One capability of a device card, as the presentation table says (format/device-presentation.ts):
 * a switch named by its device and what it is ("Bedside lamp, on/off", its state its checked state),
 * Open / Close for a door, Open / Stop / Close for window coverings, Play / Pause for a speaker, one
 * colour control for a light's hue and saturation; otherwise chosen by the capability's metadata: a
 * slider for setable numbers with a range, a choice for other setable enums, and the value as text
 * for the rest. The value shown is the user's pending one when there is one; every value carries its
 * last-updated time on hover. Controls commit deliberately (a slider on release or key, not per pixel).
 * While the hub is not live a control disabled for that says why (its tooltip, and `aria-describedby`
 * to the banner's sentence), and the value says when it was last confirmed: "21.4 °C · 2 min ago".
 */
import { memo, useState } from 'react';
import type { CapabilityValue } from '../../../common/ipc-contract';
import type { CapabilityState } from '../../../common/wire';
import { controlName, type PresentedCapability, valueWords } from '../format/device-presentation';
import { formatCapabilityValue } from '../format/format-capability';
import { formatFetchedAt } from '../format/hub-labels';
import { formatAt } from '../format/date-time';
import { type SliderScale, sliderScale } from '../format/slider-scale';
import type { PendingValue } from '../stores/open-hub-store';
import { lastConfirmed } from '../format/relative-time';
import { ColourControl } from './colour-control';
import type { Blocked } from './not-live-context';
import { useAgo } from './slow-clock';

export interface CapabilityControlProps {
  row: PresentedCapability;
  deviceName: string;
  deviceClass: string;
  pending: PendingValue | undefined;
  /** The light's saturation and its pending value, for the colour control (which sets both). */
  saturation?: CapabilityState | undefined;
  saturationPending?: PendingValue | undefined;
  /** Set when the control may not be used (no permission, device unavailable, hub not live). */
  disabled: boolean;
  /** Why changes cannot be sent while the hub is not live, and the id of the element that says so. */
  blocked?: Blocked | undefined;
  /** While the hub is not live: when the shown values were last confirmed (null: unknown); undefined while live. */
  confirmedAt?: number | null | undefined;
  onChange(capabilityId: string, value: CapabilityValue): void;
}

export const CapabilityControl = memo(function CapabilityControl(props: CapabilityControlProps) {
  const { row, deviceName, deviceClass, pending, disabled, blocked, confirmedAt, onChange } = props;
  const { state, words } = row;
  const value = pending ? pending.value : state.value;
  const alarm = state.id.startsWith('alarm_') && value === true;
  const updated = state.lastUpdated && formatFetchedAt(state.lastUpdated);
  const set = (next: CapabilityValue) => onChange(state.id, next);
  const scale = row.control === 'generic' && state.type === 'number' && state.setable ? sliderScale(state) : null;
  /** The reason on the control itself: its tooltip, and what a screen reader hears after its name. */
  const why = blocked && { title: blocked.reason, 'aria-describedby': blocked.id };
  const confirmed = confirmedAt === undefined ? null : lastConfirmed(state.lastUpdated, confirmedAt);
  const text = valueWords(deviceClass, state, value);
  const common = { disabled, why };

  let control;
  switch (row.control) {
    case 'switch':
      control = (
        <button
          type="button"
          role="switch"
          className="switch"
          aria-label={controlName(deviceName, words)}
          aria-checked={value === true}
          disabled={disabled}
          {...why}
          onClick={() => set(value !== true)}
        >
          <span className="switch-thumb" aria-hidden="true" />
          <span className="switch-text">{text}</span>
        </button>
      );
      break;
    case 'door':
      control = <Moves label={`Open or close ${deviceName}`} moves={DOOR_MOVES} current={value} {...common} onChoose={set} />;
      break;
    case 'cover-moves':
      control = <Moves label={`Move ${deviceName}`} moves={COVERING_MOVES} current={value} {...common} onChoose={set} />;
      break;
    case 'play-pause': {
      const verb = value === true ? 'Pause' : 'Play';
      control = (
        <button type="button" className="play-pause" aria-label={`${verb} ${deviceName}`} disabled={disabled} {...why} onClick={() => set(value !== true)}>
          <span aria-hidden="true">{value === true ? '❚❚' : '▶'}</span> {verb}
        </button>
      );
      break;
    }
    case 'colour':
      control = (
        <ColourControl
          deviceName={deviceName}
          hue={typeof value === 'number' ? value : null}
          saturation={numberOf(props.saturationPending ? props.saturationPending.value : props.saturation?.value)}
          canSetSaturation={props.saturation?.setable === true}
          {...common}
          onChange={onChange}
        />
      );
      break;
    case 'generic':
      control = scale ? (
        <CapabilitySlider state={state} value={value} scale={scale} label={words.label} {...common} onCommit={set} />
      ) : state.setable && state.type === 'enum' && state.values && state.values.length > 0 ? (
        <select
          aria-label={words.label}
          value={typeof value === 'string' ? value : ''}
          disabled={disabled}
          {...why}
          onChange={(event) => set(event.target.value)}
        >
          {typeof value !== 'string' && <option value="">Unknown</option>}
          {state.values.map((option) => (
            <option key={option.id} value={option.id}>
              {option.title}
            </option>
          ))}
        </select>
      ) : (
        text
      );
  }

  return (
    <div
      className="capability"
      data-capability-id={state.id}
      data-primary={row.primary}
      data-pending={pending !== undefined}
      data-alarm={alarm}
      title={updated ? `Updated ${updated}` : undefined}
    >
      <dt>{words.label}</dt>
      <dd className={scale || row.control === 'colour' ? 'with-slider' : undefined}>
        {control}
        {confirmed !== null && <ConfirmedAgo at={confirmed} />}
        {pending && <span className="pending-mark" aria-label="Not confirmed yet" role="img" />}
      </dd>
    </div>
  );
});

const numberOf = (value: CapabilityState['value'] | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** "· 2 min ago" after a value, kept current (slow-clock.ts); read as "last confirmed 2 min ago". */
function ConfirmedAgo({ at }: { at: number }) {
  const ago = useAgo(at);
  return (
    <span className="value-age" title={`Last confirmed ${formatAt(at, 'full')}`}>
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

type Move = { value: CapabilityValue; text: string; glyph: string };

/** Window coverings move up, stop or move down (`windowcoverings_state`): three buttons, as on a wall switch. */
const COVERING_MOVES: readonly Move[] = [
  { value: 'up', text: 'Open', glyph: '▲' },
  { value: 'idle', text: 'Stop', glyph: '■' },
  { value: 'down', text: 'Close', glyph: '▼' },
];

/** A door opens or closes (`garagedoor_closed`: true is closed); the pressed button is where it is. */
const DOOR_MOVES: readonly Move[] = [
  { value: false, text: 'Open', glyph: '▲' },
  { value: true, text: 'Close', glyph: '▼' },
];

function Moves({
  label,
  moves,
  current,
  disabled,
  why,
  onChoose,
}: {
  label: string;
  moves: readonly Move[];
  current: CapabilityState['value'];
  disabled: boolean;
  why: Why;
  onChoose(value: CapabilityValue): void;
}) {
  return (
    <span className="segmented" role="group" aria-label={label}>
      {moves.map((move) => (
        <button key={move.text} type="button" aria-pressed={current === move.value} disabled={disabled} {...why} onClick={() => onChoose(move.value)}>
          <span aria-hidden="true">{move.glyph}</span> {move.text}
        </button>
      ))}
    </span>
  );
}
