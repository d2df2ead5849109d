import { describe, expect, it } from 'vitest';
import { deviceClassLabel } from '../../../../renderer/src/format/device-class';

describe('deviceClassLabel', () => {
  it.each([
    ['windowcoverings', 'Window coverings'],
    ['garagedoor', 'Garage door'],
    ['evcharger', 'EV charger'],
    ['tv', 'TV'],
    ['light', 'Light'],
    ['doorbell', 'Doorbell'],
    ['vacuumcleaner', 'Vacuum cleaner'],
  ])('reads the known class %s as %s', (deviceClass, words) => {
    expect(deviceClassLabel(deviceClass)).toBe(words);
  });

  it.each([
    ['smokedetector', 'Smoke detector'],
    ['leak_sensor', 'Leak sensor'],
    ['heat-meter', 'Heat meter'],
    ['airQualityMonitor', 'Air quality monitor'],
    ['powerplug', 'Power plug'],
    ['gizmo', 'Gizmo'],
  ])('splits and capitalises an unknown class: %s → %s', (deviceClass, words) => {
    expect(deviceClassLabel(deviceClass)).toBe(words);
  });

  it('does not split a short word that merely ends like a known one, and names an empty class', () => {
    expect(deviceClassLabel('xlock')).toBe('Xlock');
    expect(deviceClassLabel('')).toBe('Other');
    expect(deviceClassLabel('__')).toBe('Other');
  });

  it('does not read inherited properties as classes', () => {
    expect(deviceClassLabel('constructor')).toBe('Constructor');
    expect(deviceClassLabel('toString')).toBe('To string');
  });
});
