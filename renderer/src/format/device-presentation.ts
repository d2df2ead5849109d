/**
 * How a device card speaks (docs/device-controls.md, "Words per class"): for each device class and
 * capability, the words of its label and its states, which control it gets, which control comes first
 * (the primary one) and the card's state line ("Closed", "Motion · 12:03", "20.6 °C, set to 21 °C").
 * Pure data and pure functions, unit-tested in Node; the card only lays them out. A class or capability
 * not in these tables falls back to the generic rendering (the hub's title, a control chosen by the
 * capability's metadata, no state line).
 */
import type { CapabilityState, Device } from '../../../common/wire';
import { capabilityLabel, capabilityStates, formatCapabilityValue } from './format-capability';
import { formatCardTime } from './date-time';

/** The control a capability gets on the card; `generic` chooses by its metadata (switch, slider, choice, text). */
export type ControlKind = 'switch' | 'door' | 'cover-moves' | 'play-pause' | 'colour' | 'generic';

export interface CapabilityWords {
  /** What it is, as its label: "On/off", "Door", "Motion". */
  label: string;
  /** A boolean's words for true and false: "Closed" / "Open". */
  states?: readonly [whenTrue: string, whenFalse: string];
  control?: ControlKind;
}

/** Words per capability, whatever the class. */
const CAPABILITY_WORDS: Readonly<Record<string, CapabilityWords>> = {
  onoff: { label: 'On/off', states: ['On', 'Off'], control: 'switch' },
  locked: { label: 'Lock', states: ['Locked', 'Unlocked'], control: 'switch' },
  garagedoor_closed: { label: 'Door', states: ['Closed', 'Open'], control: 'door' },
  windowcoverings_state: { label: 'Move', control: 'cover-moves' },
  windowcoverings_set: { label: 'Position' },
  speaker_playing: { label: 'Playback', states: ['Playing', 'Paused'], control: 'play-pause' },
  volume_set: { label: 'Volume' },
  volume_mute: { label: 'Mute', states: ['Muted', 'Sound on'], control: 'switch' },
  light_hue: { label: 'Colour', control: 'colour' },
  dim: { label: 'Brightness' },
  target_temperature: { label: 'Target temperature' },
  alarm_motion: { label: 'Motion', states: ['Motion', 'Clear'] },
  alarm_contact: { label: 'Contact', states: ['Open', 'Closed'] },
  alarm_smoke: { label: 'Smoke', states: ['Smoke detected', 'No smoke'] },
  alarm_water: { label: 'Water', states: ['Water leak', 'Dry'] },
  alarm_co: { label: 'Carbon monoxide', states: ['Carbon monoxide detected', 'No carbon monoxide'] },
  alarm_fire: { label: 'Fire', states: ['Fire detected', 'No fire'] },
  alarm_tamper: { label: 'Tampering', states: ['Tampered with', 'Untouched'] },
  alarm_battery: { label: 'Battery alarm', states: ['Battery low', 'Battery fine'] },
  alarm_generic: { label: 'Alarm', states: ['Alarm', 'Quiet'] },
};

/** Where a class means other words for a capability (a sprinkler's on/off is watering). */
const CLASS_WORDS: Readonly<Record<string, Readonly<Record<string, CapabilityWords>>>> = {
  sprinkler: { onoff: { label: 'Watering', states: ['Watering', 'Off'], control: 'switch' } },
  doorbell: { alarm_generic: { label: 'Bell', states: ['Ringing', 'Quiet'] } },
  speaker: { onoff: { label: 'Power', states: ['On', 'Off'], control: 'switch' } },
};

/** Capabilities another control already shows: the colour control sets hue and saturation together. */
const SHOWN_BY_OTHERS: ReadonlySet<string> = new Set(['light_saturation']);

const COVER_CLASSES = ['windowcoverings', 'curtain', 'blinds', 'sunshade', 'shutterblinds', 'garagedoor'] as const;

/**
 * The primary control per class: the first of these the device has comes first on its card. Classes
 * not listed keep the hub's order (the generic rendering).
 */
const PRIMARY: Readonly<Record<string, readonly string[]>> = {
  light: ['onoff'],
  socket: ['onoff'],
  heater: ['onoff', 'target_temperature'],
  evcharger: ['onoff'],
  fan: ['onoff'],
  sprinkler: ['onoff'],
  thermostat: ['target_temperature', 'onoff'],
  sensor: ['alarm_smoke', 'alarm_water', 'alarm_co', 'alarm_fire', 'alarm_motion', 'alarm_contact', 'alarm_tamper', 'measure_temperature', 'measure_co2'],
  lock: ['locked'],
  garagedoor: ['garagedoor_closed', 'windowcoverings_state'],
  windowcoverings: ['windowcoverings_state', 'windowcoverings_set'],
  curtain: ['windowcoverings_state', 'windowcoverings_set'],
  blinds: ['windowcoverings_state', 'windowcoverings_set'],
  sunshade: ['windowcoverings_state', 'windowcoverings_set'],
  shutterblinds: ['windowcoverings_state', 'windowcoverings_set'],
  speaker: ['speaker_playing', 'volume_set'],
  doorbell: ['alarm_generic'],
  homealarm: ['alarm_generic', 'alarm_tamper'],
  smokealarm: ['alarm_smoke'],
};

/** The words of a capability on a device of this class; the hub's title (generic) when none are known. */
export function capabilityWords(deviceClass: string, capability: Pick<CapabilityState, 'id' | 'title' | 'type'>): CapabilityWords {
  const byClass = Object.hasOwn(CLASS_WORDS, deviceClass) ? CLASS_WORDS[deviceClass] : undefined;
  const known =
    (byClass && Object.hasOwn(byClass, capability.id) ? byClass[capability.id] : undefined) ??
    (Object.hasOwn(CAPABILITY_WORDS, capability.id) ? CAPABILITY_WORDS[capability.id] : undefined);
  // Only where the type is the one the words are for: a hub's own `onoff` that is a number stays generic.
  if (known && (known.states === undefined || capability.type === 'boolean')) return known;
  if (capability.id.startsWith('alarm_') && capability.type === 'boolean') return { label: capability.title || capability.id, states: ['Alarm', 'OK'] };
  return { label: capabilityLabel(capability) };
}

/** A capability's value in its words: "Closed", "Smoke detected"; numbers and choices as format-capability says. */
export function valueWords(deviceClass: string, capability: CapabilityState, value: CapabilityState['value'], locale?: string): string {
  const { states } = capabilityWords(deviceClass, capability);
  if (states && typeof value === 'boolean') return value ? states[0] : states[1];
  return formatCapabilityValue(capability, value, locale);
}

/** The accessible name of a device's control: its device and what it is, "Bedside lamp, on/off". */
export function controlName(deviceName: string, words: Pick<CapabilityWords, 'label'>): string {
  return `${deviceName}, ${words.label.charAt(0).toLowerCase()}${words.label.slice(1)}`;
}

export interface PresentedCapability {
  state: CapabilityState;
  words: CapabilityWords;
  /** The control it gets; a setable capability whose words name none gets the generic one. */
  control: ControlKind;
  primary: boolean;
}

/**
 * The rows of a device card, primary first, then the rest in the hub's order; capabilities another
 * control shows (saturation, under the colour control) are left out.
 */
export function presentCapabilities(device: Device): PresentedCapability[] {
  const states = capabilityStates(device);
  const primaryId = primaryCapability(device.class, states);
  const rows = states
    .filter((state) => !SHOWN_BY_OTHERS.has(state.id) || !states.some((other) => other.id === 'light_hue' && other.setable))
    .map((state): PresentedCapability => {
      const words = capabilityWords(device.class, state);
      return { state, words, control: controlOf(state, words), primary: state.id === primaryId };
    });
  return [...rows.filter((row) => row.primary), ...rows.filter((row) => !row.primary)];
}

function controlOf(state: CapabilityState, words: CapabilityWords): ControlKind {
  const wanted = words.control ?? 'generic';
  if (!state.setable) return 'generic';
  if ((wanted === 'switch' || wanted === 'door' || wanted === 'play-pause') && state.type !== 'boolean') return 'generic';
  if (wanted === 'cover-moves' && !isCoverMoves(state)) return 'generic';
  if (wanted === 'colour' && state.type !== 'number') return 'generic';
  return wanted;
}

/** Window coverings move up, stop or move down (`windowcoverings_state` with those three values). */
function isCoverMoves(state: CapabilityState): boolean {
  const ids = new Set(state.values?.map((option) => option.id));
  return state.type === 'enum' && ['up', 'idle', 'down'].every((id) => ids.has(id));
}

/** The id of the card's primary capability, or null for a class the table does not know (generic order). */
export function primaryCapability(deviceClass: string, states: readonly Pick<CapabilityState, 'id'>[]): string | null {
  const wanted = Object.hasOwn(PRIMARY, deviceClass) ? PRIMARY[deviceClass]! : [];
  return wanted.find((id) => states.some((state) => state.id === id)) ?? null;
}

/** Times of the state line ("12:03"; with the day when not today). */
function timeWords(iso: string | null, now: number, locale: string | undefined): string | null {
  return iso ? formatCardTime(iso, now, locale) : null;
}

export interface StateLineOptions {
  now: number;
  locale?: string | undefined;
}

/**
 * The card's state line: what the device is doing, in a few words. Null for a class the table does
 * not know (the generic card has none) or when nothing is known yet.
 */
export function stateLine(device: Device, { now, locale }: StateLineOptions): string | null {
  const states = device.capabilitiesObj ?? {};
  const cap = (id: string) => (Object.hasOwn(states, id) ? states[id] : undefined);
  const words = (id: string) => {
    const state = cap(id);
    return state && state.value !== null ? valueWords(device.class, state, state.value, locale) : null;
  };
  if ((COVER_CLASSES as readonly string[]).includes(device.class)) return coverLine(device.class, cap, words, locale);
  switch (device.class) {
    case 'light':
      return join(words('onoff'), cap('onoff')?.value === true ? words('dim') : null);
    case 'socket':
    case 'heater':
    case 'evcharger':
      return join(words('onoff'), cap('onoff')?.value === true ? words('measure_power') : null);
    case 'fan':
      return join(words('onoff'), cap('onoff')?.value === true ? words('fan_speed') : null);
    case 'sprinkler':
      return words('onoff');
    case 'thermostat': {
      const target = words('target_temperature');
      return join(words('measure_temperature'), target && `set to ${target}`, cap('thermostat_mode')?.value === 'off' ? 'Off' : null);
    }
    case 'lock':
      return words('locked');
    case 'speaker':
      return join(
        words('speaker_playing') ?? words('onoff'),
        cap('volume_mute')?.value === true ? 'Muted' : words('volume_set') && `volume ${words('volume_set')}`,
      );
    case 'doorbell':
    case 'homealarm':
    case 'smokealarm':
    case 'sensor':
      return sensorLine(device, cap, words, now, locale);
    default:
      return null;
  }
}

type CapabilityOf = (id: string) => CapabilityState | undefined;
type WordsOf = (id: string) => string | null;

function coverLine(deviceClass: string, cap: CapabilityOf, words: WordsOf, locale: string | undefined): string | null {
  if (deviceClass === 'garagedoor' && cap('garagedoor_closed')) return words('garagedoor_closed');
  const position = cap('windowcoverings_set')?.value;
  const moving = cap('windowcoverings_state')?.value;
  const motion = moving === 'up' ? 'Opening' : moving === 'down' ? 'Closing' : null;
  if (typeof position !== 'number') return motion;
  // Position is how far open (0 closed, 1 fully open).
  const where =
    position <= 0
      ? 'Closed'
      : position >= 1
        ? 'Open'
        : `Open ${formatCapabilityValue({ ...cap('windowcoverings_set')!, id: 'windowcoverings_set' }, position, locale)}`;
  // Once it reached its end the motion is done: "Closed", not "Closing · Closed".
  const arrived = (moving === 'down' && position <= 0) || (moving === 'up' && position >= 1);
  return arrived || motion === null ? where : `${motion} · ${where}`;
}

function sensorLine(device: Device, cap: CapabilityOf, words: WordsOf, now: number, locale: string | undefined): string | null {
  const alarms = capabilityStates(device).filter((state) => state.id.startsWith('alarm_') && state.type === 'boolean' && state.id !== 'alarm_battery');
  const sounding = alarms.filter((state) => state.value === true);
  // An alarm that sounds says what it is ("Smoke detected"); otherwise the first alarm's quiet word.
  const shown = sounding[0] ?? primaryAlarm(device.class, alarms);
  if (shown) {
    const text = words(shown.id);
    if (shown.id !== 'alarm_motion') return text;
    // A motion sensor says when it last saw motion: since it started, or when it ended.
    const at = timeWords(shown.lastUpdated, now, locale);
    return join(text, at && (shown.value === true ? `since ${at}` : `last motion ${at}`));
  }
  return join(words('measure_temperature'), cap('measure_humidity') ? words('measure_humidity') : words('measure_co2'));
}

function primaryAlarm(deviceClass: string, alarms: CapabilityState[]): CapabilityState | undefined {
  const id = primaryCapability(deviceClass, alarms);
  return alarms.find((state) => state.id === id) ?? alarms[0];
}

/** Parts of a state line, those known, joined by " · "; null when none is. */
function join(...parts: (string | null)[]): string | null {
  return parts.filter((part): part is string => part !== null && part !== '').join(' · ') || null;
}
