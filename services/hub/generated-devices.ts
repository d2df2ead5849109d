/**
 * Devices made up by number for a large demo home (the bench's 1,000 devices): a mix of classes
 * spread over the home's zones, each with plausible values, the same on every start.
 */
import type { CapabilityValues } from './capabilities';
import type { DeviceSeed } from './device-seed';

interface Template {
  class: string;
  name: string;
  values: (index: number) => CapabilityValues;
}

const TEMPLATES: Template[] = [
  { class: 'light', name: 'Light', values: (i) => ({ onoff: i % 3 === 0, dim: ((i * 7) % 101) / 100 }) },
  { class: 'socket', name: 'Socket', values: (i) => ({ onoff: i % 2 === 0, measure_power: (i % 50) * 2.5, meter_power: i * 1.25 }) },
  {
    class: 'sensor',
    name: 'Climate sensor',
    values: (i) => ({ measure_temperature: 18 + (i % 60) / 10, measure_humidity: 35 + (i % 40), measure_battery: 20 + (i % 81) }),
  },
  {
    class: 'thermostat',
    name: 'Thermostat',
    values: (i) => ({ target_temperature: 18 + (i % 9) * 0.5, measure_temperature: 19 + (i % 30) / 10, thermostat_mode: 'heat' }),
  },
  { class: 'sensor', name: 'Motion sensor', values: (i) => ({ alarm_motion: false, measure_battery: 30 + (i % 71) }) },
  { class: 'sensor', name: 'Door sensor', values: (i) => ({ alarm_contact: i % 5 === 0, measure_battery: 40 + (i % 61) }) },
  { class: 'windowcoverings', name: 'Blinds', values: (i) => ({ windowcoverings_state: 'idle', windowcoverings_set: (i % 11) / 10 }) },
  { class: 'fan', name: 'Fan', values: (i) => ({ onoff: false, fan_speed: (i % 5) / 4 }) },
];

/** `count` seeds (none when count ≤ 0), numbered from 1, cycling through the templates and the zones. */
export function generatedSeeds(count: number, zones: readonly string[]): DeviceSeed[] {
  return Array.from({ length: Math.max(0, count) }, (_, index) => {
    const template = TEMPLATES[index % TEMPLATES.length]!;
    const number = index + 1;
    return {
      key: `generated-${number}`,
      name: `${template.name} ${number}`,
      class: template.class,
      zone: zones[index % zones.length]!,
      values: template.values(number),
    };
  });
}
