/**
 * The command palette's commands (docs/architecture.md, "The desktop"): every hub to open, every view, every capability of the
 * open hub's devices that this sign-in may set (toggle a switch, set a number, choose an option) and
 * every flow it may start — built from the stores' state, and found by what the user types. Pure: no
 * DOM, no store; unit-tested in Node.
 *
 * Matching: the query is cut into words; every word must occur in the command's title or description
 * (case and accents ignored). A word that starts a word of the title ranks above one that starts a
 * word of the description, which ranks above one found inside a word; shorter titles win ties.
 */
import type { CapabilityValue, HubPermissions, HubView } from '../../../common/ipc-contract';
import type { CapabilityState, Device } from '../../../common/wire';
import { capabilityWords, valueWords } from './device-presentation';
import { isFraction } from './format-capability';
import { sliderScale } from './slider-scale';
import { activeDevices, type Change, TURN_OFF_CLASSES, turnOffClass } from './whats-on';

export const PALETTE_VIEWS = [
  { view: 'hubs', title: 'Hubs' },
  { view: 'webhooks', title: 'Webhooks' },
  { view: 'settings', title: 'Settings' },
] as const;
export type PaletteView = (typeof PALETTE_VIEWS)[number]['view'];

/** A query longer than this is cut: nobody types it, and matching stays cheap. */
export const MAX_QUERY_LENGTH = 200;

export type PaletteAction =
  | { kind: 'open-hub'; hubId: string }
  | { kind: 'view'; view: PaletteView }
  | { kind: 'set'; deviceId: string; capabilityId: string; value: CapabilityValue }
  | { kind: 'set-many'; changes: Change[] }
  | { kind: 'enter-number'; deviceId: string; capability: CapabilityState }
  | { kind: 'choose'; deviceId: string; capability: CapabilityState }
  | { kind: 'start-flow'; flowId: string };

export interface PaletteCommand {
  /** Unique among the commands (a DOM id is made from it). */
  id: string;
  title: string;
  /** What it is and where, e.g. "Switch · Living room · now off". */
  detail: string;
  /** What Enter does, shown at the end of the row: "Turn on", "Set…", "Start", "Open". */
  verb: string;
  action: PaletteAction;
}

export interface PaletteSource {
  hubs: readonly Pick<HubView, 'id' | 'name'>[];
  openHubId: string | null;
  devices: readonly Device[];
  permissions: HubPermissions;
  /** The open hub's flows that may be started (none when it may not). */
  flows: readonly { id: string; name: string; enabled: boolean }[];
}

/** Every command the user could run now, in a natural order: hubs, views, devices by name, flows. */
export function buildCommands(source: PaletteSource): PaletteCommand[] {
  const commands: PaletteCommand[] = [];
  for (const hub of source.hubs) {
    const open = hub.id === source.openHubId;
    commands.push({ id: `hub:${hub.id}`, title: hub.name, detail: open ? 'Hub · open now' : 'Hub', verb: 'Open', action: { kind: 'open-hub', hubId: hub.id } });
  }
  for (const { view, title } of PALETTE_VIEWS) commands.push({ id: `view:${view}`, title, detail: 'View', verb: 'Go to', action: { kind: 'view', view } });
  if (source.permissions.control) {
    commands.push(...turnOffCommands(source.devices));
    const devices = [...source.devices].sort((a, b) => a.name.localeCompare(b.name));
    for (const device of devices) {
      if (device.available === false) continue;
      for (const capability of Object.values<CapabilityState>(device.capabilitiesObj ?? {})) {
        const command = capabilityCommand(device, capability);
        if (command) commands.push(command);
      }
    }
  }
  for (const flow of source.flows) {
    if (flow.enabled)
      commands.push({ id: `flow:${flow.id}`, title: flow.name, detail: 'Flow', verb: 'Start', action: { kind: 'start-flow', flowId: flow.id } });
  }
  return commands;
}

/** "Turn off all lights" (and sockets, fans) while any is on: what the "What's on" view offers (format/whats-on.ts). */
function turnOffCommands(devices: readonly Device[]): PaletteCommand[] {
  const active = activeDevices(devices);
  return TURN_OFF_CLASSES.flatMap(({ deviceClass, plural }) => {
    const changes = turnOffClass(active, deviceClass);
    if (changes.length === 0) return [];
    return [
      {
        id: `turn-off:${deviceClass}`,
        title: `Turn off all ${plural}`,
        detail: `What’s on · ${changes.length} on now`,
        verb: 'Turn off',
        action: { kind: 'set-many', changes },
      },
    ];
  });
}

function capabilityCommand(device: Device, capability: CapabilityState): PaletteCommand | null {
  if (!capability.setable) return null;
  // In the card's words (format/device-presentation.ts): "Garage door: Door · now closed".
  const where = [device.zoneName, `now ${valueWords(device.class, capability, capability.value).toLowerCase()}`].filter(Boolean).join(' · ');
  const base = { id: `capability:${device.id}:${capability.id}`, title: `${device.name}: ${capabilityWords(device.class, capability).label}` };
  if (capability.type === 'boolean') {
    const on = capability.value === true;
    return {
      ...base,
      detail: `Switch · ${where}`,
      verb: on ? 'Turn off' : 'Turn on',
      action: { kind: 'set', deviceId: device.id, capabilityId: capability.id, value: !on },
    };
  }
  if (capability.type === 'number' && sliderScale(capability) !== null) {
    return { ...base, detail: `Number · ${where}`, verb: 'Set…', action: { kind: 'enter-number', deviceId: device.id, capability } };
  }
  if (capability.type === 'enum' && capability.values && capability.values.length > 0) {
    return { ...base, detail: `Choice · ${where}`, verb: 'Choose…', action: { kind: 'choose', deviceId: device.id, capability } };
  }
  return null;
}

/** The options of a choice capability as commands of the palette's second step. */
export function choiceCommands(deviceId: string, capability: CapabilityState): PaletteCommand[] {
  return (capability.values ?? []).map((option) => ({
    id: `option:${deviceId}:${capability.id}:${option.id}`,
    title: option.title,
    detail: option.id === capability.value ? 'Current' : '',
    verb: 'Choose',
    action: { kind: 'set', deviceId, capabilityId: capability.id, value: option.id },
  }));
}

/** Lower case without accents, so "Cafe" finds "Café". */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const startsAWord = (text: string, word: string) =>
  text.startsWith(word) || text.includes(` ${word}`) || text.includes(`:${word}`) || text.includes(`-${word}`);

/** The commands matching `query`, best first, at most `limit`. An empty query keeps the natural order. */
export function searchCommands(commands: readonly PaletteCommand[], query: string, limit: number): PaletteCommand[] {
  const words = fold(query.slice(0, MAX_QUERY_LENGTH)).split(/\s+/).filter(Boolean);
  if (words.length === 0) return commands.slice(0, limit);
  const scored: { command: PaletteCommand; score: number }[] = [];
  for (const command of commands) {
    const title = fold(command.title);
    const detail = fold(command.detail);
    let score = 0;
    for (const word of words) {
      if (startsAWord(title, word)) score += 4;
      else if (startsAWord(detail, word)) score += 2;
      else if (title.includes(word) || detail.includes(word)) score += 1;
      else {
        score = -1;
        break;
      }
    }
    if (score >= 0) scored.push({ command, score });
  }
  scored.sort((a, b) => b.score - a.score || a.command.title.length - b.command.title.length || a.command.title.localeCompare(b.command.title));
  return scored.slice(0, limit).map(({ command }) => command);
}

/** The unit a number is typed in: percent for fractions (as the sliders show them), else the capability's own. */
export function entryUnits(capability: CapabilityState): string {
  return isFraction(capability) ? '%' : (capability.units ?? '');
}

/**
 * A number typed in the palette's second step, in the units the sliders use (a dim level in percent),
 * checked against the capability's range and step; the value to send is in the capability's own units.
 */
export function parseNumberEntry(text: string, capability: CapabilityState): { ok: true; value: number } | { ok: false; message: string } {
  const scale = sliderScale(capability);
  if (scale === null) return { ok: false, message: 'This value cannot be set from here.' };
  const trimmed = text.trim().replace(/\s*%$/, '').replace(',', '.');
  if (trimmed === '') return { ok: false, message: 'Type a number.' };
  const typed = Number(trimmed);
  if (!Number.isFinite(typed)) return { ok: false, message: `“${text.trim().slice(0, 20)}” is not a number.` };
  const units = entryUnits(capability) ? ` ${entryUnits(capability)}` : '';
  if (typed < scale.min || typed > scale.max) return { ok: false, message: `Choose a value from ${scale.min} to ${scale.max}${units}.` };
  const steps = (typed - scale.min) / scale.step;
  if (Math.abs(steps - Math.round(steps)) > 1e-6) return { ok: false, message: `Choose a value in steps of ${scale.step}${units}.` };
  return { ok: true, value: scale.fromSlider(typed) };
}
