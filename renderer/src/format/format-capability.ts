/**
 * Capability values as people read them. Pure, so every rule is unit-tested; the components only
 * lay the strings out. Numbers use a fixed English format because the whole interface is English.
 */
import type { CapabilityState, Device } from '../../../common/wire';

const UNKNOWN = 'Unknown';

export function formatCapability(capability: CapabilityState): string {
  return formatCapabilityValue(capability, capability.value);
}

/** A value of this capability (e.g. one not yet confirmed by the hub) formatted like its current one. */
export function formatCapabilityValue(capability: CapabilityState, value: CapabilityState['value']): string {
  const { id } = capability;
  if (value === null) return UNKNOWN;
  switch (capability.type) {
    case 'boolean':
      return typeof value === 'boolean' ? formatBoolean(id, value) : String(value);
    case 'number':
      return typeof value === 'number' ? formatNumber(capability, value) : String(value);
    case 'enum':
      return capability.values?.find((option) => option.id === value)?.title ?? String(value);
    case 'string':
      return String(value);
  }
}

/**
 * Titles that are themselves a state ("Turned on", "Locked") would say the state twice next to the
 * value ("Turned on  On"); these capabilities are labelled by what they are instead ("Switch  On"; not
 * "Power", which is the title of a power reading on the same card). The control's accessible name
 * stays the hub's title.
 */
const STATE_TITLES: Readonly<Record<string, string>> = { onoff: 'Switch', locked: 'Lock' };

/** The visible label of a capability beside its value: says what it is, so the value alone says the state once. */
export function capabilityLabel(capability: Pick<CapabilityState, 'id' | 'title' | 'type'>): string {
  const stateless = capability.type === 'boolean' && Object.hasOwn(STATE_TITLES, capability.id) ? STATE_TITLES[capability.id] : undefined;
  return stateless ?? (capability.title || capability.id);
}

/** The device's capability states in the device's own order, skipping any it lists without a state. */
export function capabilityStates(device: Device): CapabilityState[] {
  const states = device.capabilitiesObj ?? {};
  return device.capabilities.flatMap((id) => {
    const state = Object.hasOwn(states, id) ? states[id] : undefined;
    return state ? [state] : [];
  });
}

function formatBoolean(id: string, value: boolean): string {
  if (id === 'onoff') return value ? 'On' : 'Off';
  if (id === 'locked') return value ? 'Locked' : 'Unlocked';
  if (id.startsWith('alarm_')) return value ? 'Alarm' : 'OK';
  return value ? 'Yes' : 'No';
}

function formatNumber(capability: CapabilityState, value: number): string {
  if (!Number.isFinite(value)) return UNKNOWN;
  // A light's hue is an angle on the colour wheel; its colour temperature runs from cool (0) to warm (1).
  if (capability.id === 'light_hue') return `${formatDecimal(value * 360, 0)}°`;
  if (capability.id === 'light_temperature') return `${formatDecimal(value * 100, 0)} % warm`;
  // Dim levels, positions, fan speeds… are fractions 0..1 on the wire (with or without units '%');
  // people think in percent.
  if (isFraction(capability)) return `${formatDecimal(value * 100, 0)} %`;
  const text = formatDecimal(value, capability.decimals);
  return capability.units ? `${text} ${capability.units}` : text;
}

/** A reading with the decimals and units a hub gives for it (e.g. a chart's minimum): "21.5 °C". */
export function formatMeasurement(value: number, decimals: number | null, units: string | null): string {
  const text = formatDecimal(value, decimals ?? undefined);
  return units ? `${text} ${units}` : text;
}

/** Dim levels, positions, fan speeds…: fractions 0..1 on the wire, shown in percent. */
export function isFraction(capability: Pick<CapabilityState, 'id' | 'units' | 'min' | 'max'>): boolean {
  if (capability.id === 'dim' || capability.id.startsWith('dim.')) return true;
  return capability.units === '%' && capability.min === 0 && capability.max === 1;
}

/** One number formatter per number of decimals (at most eight): building one per value is slow on a large hub. */
const decimalFormats = new Map<number | undefined, Intl.NumberFormat>();

function decimalFormat(digits: number | undefined): Intl.NumberFormat {
  let format = decimalFormats.get(digits);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits ?? 0, maximumFractionDigits: digits ?? 2 });
    decimalFormats.set(digits, format);
  }
  return format;
}

function formatDecimal(value: number, decimals: number | undefined): string {
  const digits = decimals !== undefined && Number.isInteger(decimals) && decimals >= 0 && decimals <= 6 ? decimals : undefined;
  const text = decimalFormat(digits).format(value);
  // Rounding can leave "-0"; a reading of minus zero means nothing to anyone.
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}
