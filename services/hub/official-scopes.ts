/**
 * Our scope names (`SCOPES`, common/wire.ts) and the ones of the official client's family
 * (`homey.<resource>[.<level>]`, as its bundled specification lists them per operation). A hub reads
 * either in a delegation token, and reports a session's scopes in both: ours as `scopes`, theirs as
 * `intersectedScopes`, which that client checks before calls.
 *
 * The mapping is generic: `homey.` plus one of our names means that scope (`homey.flow.start`,
 * `homey.insights.readonly`, and any scope added later). The exceptions are written out: devices are
 * `device` there, and a level we do not have maps to the one that is no wider (`homey.device.control`
 * and the full `homey.device` to `devices`, the full `homey.flow` to `flow.start`). A name that maps
 * to nothing grants nothing — `homey.zone.readonly` above all, which must not open device reading.
 */
import { SCOPES, type Scope } from '../../common/wire';
import { IMPLIED_BY } from './scope-grants';

const PREFIX = 'homey.';

const FROM_OFFICIAL: Readonly<Record<string, Scope>> = {
  'homey.device': 'devices',
  'homey.device.control': 'devices',
  'homey.device.readonly': 'devices.readonly',
  'homey.flow': 'flow.start',
};

const TO_OFFICIAL: Partial<Record<Scope, string>> = {
  devices: 'homey.device.control',
  'devices.readonly': 'homey.device.readonly',
};

/** The zones are part of what `devices.readonly` shows (every device names its zone). */
const ZONES_READONLY = 'homey.zone.readonly';

const isScope = (name: string): name is Scope => (SCOPES as readonly string[]).includes(name);

/** Our scope for a name in either form, or undefined for a name we do not know. */
export function scopeNamed(name: string): Scope | undefined {
  if (isScope(name)) return name;
  if (Object.hasOwn(FROM_OFFICIAL, name)) return FROM_OFFICIAL[name];
  const bare = name.startsWith(PREFIX) ? name.slice(PREFIX.length) : undefined;
  return bare !== undefined && isScope(bare) ? bare : undefined;
}

/** A session's scopes as the official client names them, with what each implies (`devices` → `devices.readonly`). */
export function officialScopes(scopes: readonly Scope[]): string[] {
  const granted = new Set<Scope>(scopes);
  for (const [narrow, wide] of Object.entries(IMPLIED_BY) as [Scope, Scope][]) if (granted.has(wide)) granted.add(narrow);
  const names = [...granted].map((scope) => TO_OFFICIAL[scope] ?? `${PREFIX}${scope}`);
  if (granted.has('devices.readonly')) names.push(ZONES_READONLY);
  return names;
}
