/**
 * Every keyboard shortcut of the app, in one table (docs/architecture.md, "The desktop"): the key handling and the shortcuts
 * sheet (`?`) both read it, so what the sheet says is what the keys do. No DOM: unit-tested in Node.
 */
import type { KeyPress } from './hub-shortcut-keys';

export interface Shortcut {
  /** The keys as the sheet shows them; `Mod` is ⌘ on macOS and Ctrl elsewhere. */
  keys: readonly string[];
  /** Another key that does the same, e.g. ↓ beside j. */
  or?: string;
  description: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Mod', 'K'], description: 'Find a hub, device, setting or flow, and act on it' },
  { keys: ['Mod', '1…9'], description: 'Open the first nine hubs' },
  { keys: ['?'], description: 'Show these shortcuts' },
  { keys: ['Esc'], description: 'Close a dialog, or go back a step in the command palette' },
  { keys: ['↑ ↓'], description: 'Move through the command palette’s results' },
  { keys: ['Enter'], description: 'Run the chosen command' },
];

/** What a key does in the webhook inspector (docs/webhooks-app.md, "Keyboard"). */
export type InspectorAction = 'next' | 'previous' | 'open' | 'replay' | 'copy-curl' | 'search' | 'back';

const INSPECTOR_KEYS: readonly { key: string; action: InspectorAction; or?: string; description: string }[] = [
  { key: 'j', or: '↓', action: 'next', description: 'Select the next (older) message' },
  { key: 'k', or: '↑', action: 'previous', description: 'Select the previous (newer) message' },
  { key: 'Enter', action: 'open', description: 'Open the selected message’s details' },
  { key: 'r', action: 'replay', description: 'Replay the selected message to its intake' },
  { key: 'c', action: 'copy-curl', description: 'Copy the selected message as a curl command' },
  { key: '/', action: 'search', description: 'Search the messages' },
  { key: 'Escape', action: 'back', description: 'Back from a message to the list (in a narrow window)' },
];

/** The webhook inspector's keys, for the sheet; they work while the Webhooks view is shown and nothing is being typed. */
export const INSPECTOR_SHORTCUTS: readonly Shortcut[] = INSPECTOR_KEYS.map(({ key, or, description }) => ({
  keys: [key === 'Escape' ? 'Esc' : key],
  ...(or !== undefined && { or }),
  description,
}));

/**
 * The inspector action of a key press, or null. No Ctrl, ⌘ or Alt; no Shift either, except for `/`,
 * which some layouts type with it. Whether the focus is in a text field is the caller's to check.
 */
export function inspectorAction(event: KeyPress): InspectorAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (event.shiftKey && event.key !== '/') return null;
  return INSPECTOR_KEYS.find((entry) => entry.key === event.key)?.action ?? null;
}

/** Ctrl+K, or ⌘+K, without other modifiers. */
export function isPaletteKey(event: KeyPress): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
}

/** `?` alone (Shift is how most layouts type it). */
export function isShortcutsKey(event: KeyPress): boolean {
  return event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey;
}

/** How `Mod` reads on this platform. */
export function modifierLabel(platform: string): string {
  return /mac|iphone|ipad/i.test(platform) ? '⌘' : 'Ctrl';
}
