/**
 * What the tray shows (docs/architecture.md, the `tray-menu.ts` row of "main/core"), as plain data: the
 * open hub's summary (main/core/hubs/open-hub-model.ts) in, the tooltip and the menu's items out. Pure and without an `electron` import, so
 * every case is unit-tested; tray.ts only turns the items into an Electron `Menu` and runs their actions.
 *
 * Names come from the hub: control and bidirectional-override characters are removed, `&` is doubled (Electron reads a single one
 * as a mnemonic on Windows and Linux) and long names are cut. At most a few favourites and flows are
 * listed; the rest are one "More in Hubdesk…" away.
 */
import type { OpenHubSummary } from '../core/hubs';
import { liveWords } from '../../common/live-words';
import { oneLine } from '../../common/one-line';

/** What clicking an item does. `toggle` carries the value to set (the opposite of what is shown). */
export type TrayAction =
  | { kind: 'toggle'; hubId: string; deviceId: string; name: string; value: boolean }
  | { kind: 'flow'; hubId: string; flowId: string; name: string }
  | { kind: 'open' }
  | { kind: 'quit' };

export type TrayItem =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: TrayAction }
  | { type: 'checkbox'; label: string; enabled: boolean; checked: boolean; action?: TrayAction };

export interface TrayView {
  tooltip: string;
  items: TrayItem[];
}

/** The part of the sign-in the tray needs; `unknown` until the core said (then the summary alone decides). */
export type TraySignIn = 'signed-in' | 'signed-out' | 'unknown';

/** Menu lines longer than this are cut (a menu as wide as the screen helps nobody). */
export const MAX_LABEL_LENGTH = 40;
/** Windows cuts tray tooltips at 127 characters; the others are not much more generous. */
export const MAX_TOOLTIP_LENGTH = 127;
/** Favourites listed in the menu; the others are in the app. */
export const MAX_FAVOURITES = 10;
export const MAX_FLOWS = 10;

export const MORE_LABEL = 'More in Hubdesk…';
export const OPEN_LABEL = 'Open Hubdesk';
export const QUIT_LABEL = 'Quit Hubdesk';

/** A name from the hub as one safe line (common/one-line.ts), at most `max` characters. */
export function cleanName(raw: string, max: number = MAX_LABEL_LENGTH): string {
  return oneLine(raw, max, 'Unnamed');
}

/** A menu label: `&` is a mnemonic marker in Electron menus, `&&` a literal ampersand. */
function label(text: string): string {
  return text.replace(/&/g, '&&');
}

/** The connection in a few words, as the tooltip and the menu's first line say it (the words are common/live-words.ts's). */
export function connectionLine(summary: OpenHubSummary, signIn: TraySignIn): string {
  if (signIn === 'signed-out') return 'Signed out';
  if (summary.hubId === null || summary.live.kind === 'closed') return 'No hub open';
  return liveWords(summary.live, cleanName(summary.hubName ?? summary.hubId, 30)).sentence;
}

function favouriteItems(summary: OpenHubSummary, hubId: string): TrayItem[] {
  if (summary.favourites.length === 0) return [];
  const shown = summary.favourites.slice(0, MAX_FAVOURITES);
  const items: TrayItem[] = [
    { type: 'normal', label: 'Favourites', enabled: false },
    ...shown.map((favourite): TrayItem => {
      const name = cleanName(favourite.name);
      const enabled = favourite.canToggle && favourite.on !== null;
      return {
        type: 'checkbox',
        label: label(favourite.on === null ? `${name} (no switch)` : name),
        checked: favourite.on === true,
        enabled,
        ...(enabled ? { action: { kind: 'toggle', hubId, deviceId: favourite.deviceId, name, value: !favourite.on } } : {}),
      };
    }),
  ];
  if (summary.favourites.length > shown.length) items.push({ type: 'normal', label: MORE_LABEL, enabled: true, action: { kind: 'open' } });
  return items;
}

function flowItems(summary: OpenHubSummary, hubId: string): TrayItem[] {
  if (summary.flows.length === 0) return [];
  const shown = summary.flows.slice(0, MAX_FLOWS);
  const items: TrayItem[] = [
    { type: 'normal', label: 'Start a flow', enabled: false },
    ...shown.map((flow): TrayItem => {
      const name = cleanName(flow.name);
      return { type: 'normal', label: label(name), enabled: true, action: { kind: 'flow', hubId, flowId: flow.id, name } };
    }),
  ];
  if (summary.flows.length > shown.length) items.push({ type: 'normal', label: MORE_LABEL, enabled: true, action: { kind: 'open' } });
  return items;
}

/** The whole tray: tooltip and menu, for one summary. */
export function buildTrayView(summary: OpenHubSummary, signIn: TraySignIn): TrayView {
  const line = connectionLine(summary, signIn);
  const sections: TrayItem[][] = [[{ type: 'normal', label: label(line), enabled: false }]];
  if (signIn !== 'signed-out' && summary.hubId !== null) {
    const favourites = favouriteItems(summary, summary.hubId);
    const flows = flowItems(summary, summary.hubId);
    if (favourites.length > 0) sections.push(favourites);
    if (flows.length > 0) sections.push(flows);
  }
  sections.push([
    { type: 'normal', label: OPEN_LABEL, enabled: true, action: { kind: 'open' } },
    { type: 'normal', label: QUIT_LABEL, enabled: true, action: { kind: 'quit' } },
  ]);
  const items = sections.flatMap((section, index) => (index === 0 ? section : [{ type: 'separator' } as const, ...section]));
  return { tooltip: cleanName(`Hubdesk — ${line}`, MAX_TOOLTIP_LENGTH), items };
}

/** Whether two views would look and act the same (then the menu is not rebuilt). */
export function sameTrayView(a: TrayView, b: TrayView): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
