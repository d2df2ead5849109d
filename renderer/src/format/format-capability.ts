/**
 * Capability values as people read them. Pure, so every rule is unit-tested; the components only
 * lay the strings out. Numbers are in the user's locale (Intl's default, "1.234,5" in German), or in
 * the locale given (the tests'); the words stay English, as the whole interface is.
 */
import type { CapabilityState, Device } from '../../../common/wire';

const UNKNOWN = 'Unknown';

export function formatCapability(capability: CapabilityState, locale?: string): string {
  return formatCapabilityValue(capability, capability.value, locale);
}

/** A value of this capability (e.g. one not yet confirmed by the hub) formatted like its current one. */
export function formatCapabilityValue(capability: CapabilityState, value: CapabilityState['value'], locale?: string): string {
  const { id } = capability;
  if (value === null) return UNKNOWN;
  switch (capability.type) {
    case 'boolean':
      return typeof value === 'boolean' ? formatBoolean(id, value) : String(value);
    case 'number':
      return typeof value === 'number' ? formatNumber(capability, value, locale) : String(value);
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

function formatNumber(capability: CapabilityState, value: number, locale: string | undefined): string {
  if (!Number.isFinite(value)) return UNKNOWN;
  // A light's hue is an angle on the colour wheel; its colour temperature runs from cool (0) to warm (1).
  if (capability.id === 'light_hue') return `${formatDecimal(value * 360, 0, locale)}°`;
  if (capability.id === 'light_temperature') return `${formatDecimal(value * 100, 0, locale)} % warm`;
  // Dim levels, positions, fan speeds… are fractions 0..1 on the wire (with or without units '%');
  // people think in percent.
  if (isFraction(capability)) return `${formatDecimal(value * 100, 0, locale)} %`;
  const text = formatDecimal(value, capability.decimals, locale);
  return capability.units ? `${text} ${capability.units}` : text;
}

/** A reading with the decimals and units a hub gives for it (e.g. a chart's minimum): "21.5 °C". */
export function formatMeasurement(value: number, decimals: number | null, units: string | null, locale?: string): string {
  const text = formatDecimal(value, decimals ?? undefined, locale);
  return units ? `${text} ${units}` : text;
}

/** Dim levels, positions, fan speeds…: fractions 0..1 on the wire, shown in percent. */
export function isFraction(capability: Pick<CapabilityState, 'id' | 'units' | 'min' | 'max'>): boolean {
  if (capability.id === 'dim' || capability.id.startsWith('dim.')) return true;
  return capability.units === '%' && capability.min === 0 && capability.max === 1;
}

/** One number formatter per locale and number of decimals (at most eight per locale): building one per value is slow on a large hub. */
const decimalFormats = new Map<string, Intl.NumberFormat>();

function decimalFormat(digits: number | undefined, locale: string | undefined): Intl.NumberFormat {
  const key = `${locale ?? ''}|${digits ?? ''}`;
  let format = decimalFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits ?? 0, maximumFractionDigits: digits ?? 2 });
    if (decimalFormats.size < MAX_FORMATS) decimalFormats.set(key, format);
  }
  return format;
}
/** Bounds the cache: a few locales (the user's, the tests') times the decimals in use. */
const MAX_FORMATS = 64;

/** A number in the locale's digits and separators, with the given decimals (or up to two). */
export function formatDecimal(value: number, decimals: number | undefined, locale?: string): string {
  const digits = decimals !== undefined && Number.isInteger(decimals) && decimals >= 0 && decimals <= 6 ? decimals : undefined;
  const text = decimalFormat(digits, locale).format(value);
  // Rounding can leave "-0" ("-0,0", "−0"); a reading of minus zero means nothing to anyone.
  return /^[-\u2212][^1-9]*$/.test(text) ? text.slice(1) : text;
}
