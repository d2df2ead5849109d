/**
 * Device classes as words ("Window coverings", not `windowcoverings`): the hub's classes are run-together
 * lower-case identifiers. Known ones have their words; others are split at `_`, `-`, spaces and camel
 * case, and a run-together word is split before a known last word ("smokedetector" → "Smoke detector").
 */

const CLASS_WORDS: Readonly<Record<string, string>> = {
  airconditioning: 'Air conditioning',
  airfryer: 'Air fryer',
  airpurifier: 'Air purifier',
  airtreatment: 'Air treatment',
  amplifier: 'Amplifier',
  battery: 'Battery',
  bicycle: 'Bicycle',
  blinds: 'Blinds',
  boiler: 'Boiler',
  button: 'Button',
  camera: 'Camera',
  car: 'Car',
  coffeemachine: 'Coffee machine',
  curtain: 'Curtain',
  dehumidifier: 'Dehumidifier',
  diffuser: 'Diffuser',
  dishwasher: 'Dishwasher',
  doorbell: 'Doorbell',
  dryer: 'Dryer',
  evcharger: 'EV charger',
  fan: 'Fan',
  faucet: 'Faucet',
  fireplace: 'Fireplace',
  freezer: 'Freezer',
  fridge: 'Fridge',
  fridge_and_freezer: 'Fridge and freezer',
  fryer: 'Fryer',
  gameconsole: 'Game console',
  garagedoor: 'Garage door',
  grill: 'Grill',
  heater: 'Heater',
  heatpump: 'Heat pump',
  homealarm: 'Home alarm',
  humidifier: 'Humidifier',
  kettle: 'Kettle',
  lawnmower: 'Lawn mower',
  light: 'Light',
  lock: 'Lock',
  mediaplayer: 'Media player',
  microwave: 'Microwave',
  mop: 'Mop',
  multicooker: 'Multicooker',
  networkrouter: 'Network router',
  other: 'Other',
  oven: 'Oven',
  oven_and_microwave: 'Oven and microwave',
  petfeeder: 'Pet feeder',
  radiator: 'Radiator',
  remote: 'Remote',
  scooter: 'Scooter',
  security: 'Security',
  sensor: 'Sensor',
  settopbox: 'Set-top box',
  shutterblinds: 'Shutter blinds',
  smokealarm: 'Smoke alarm',
  socket: 'Socket',
  solarpanel: 'Solar panel',
  speaker: 'Speaker',
  sprinkler: 'Sprinkler',
  sunshade: 'Sunshade',
  thermostat: 'Thermostat',
  tv: 'TV',
  vacuumcleaner: 'Vacuum cleaner',
  washer: 'Washer',
  washer_and_dryer: 'Washer and dryer',
  waterheater: 'Water heater',
  waterpurifier: 'Water purifier',
  watervalve: 'Water valve',
  windowcoverings: 'Window coverings',
};

/** Last words a run-together class may end in, longest first so "conditioning" wins over shorter ones. */
const LAST_WORDS = [
  'conditioning',
  'coverings',
  'detector',
  'purifier',
  'cleaner',
  'charger',
  'machine',
  'monitor',
  'console',
  'heater',
  'sensor',
  'switch',
  'player',
  'router',
  'feeder',
  'panel',
  'meter',
  'alarm',
  'light',
  'valve',
  'plug',
  'pump',
  'lock',
  'door',
  'bell',
].sort((a, b) => b.length - a.length);

export function deviceClassLabel(deviceClass: string): string {
  const known = Object.hasOwn(CLASS_WORDS, deviceClass) ? CLASS_WORDS[deviceClass] : undefined;
  if (known !== undefined) return known;
  const words = deviceClass
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .flatMap(splitRunTogether)
    .map((word) => word.toLowerCase());
  if (words.length === 0) return 'Other';
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function splitRunTogether(word: string): string[] {
  const lower = word.toLowerCase();
  const last = LAST_WORDS.find((tail) => lower.endsWith(tail) && lower.length - tail.length >= 2);
  return last === undefined ? [word] : [word.slice(0, word.length - last.length), word.slice(word.length - last.length)];
}
