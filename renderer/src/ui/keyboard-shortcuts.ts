/**
 * Every keyboard shortcut of the app, in one table (issue 13 §4): the key handling and the shortcuts
 * sheet (`?`) both read it, so what the sheet says is what the keys do. No DOM: unit-tested in Node.
 */
import type { KeyPress } from './hub-shortcut-keys';

export interface Shortcut {
  /** The keys as the sheet shows them; `Mod` is ⌘ on macOS and Ctrl elsewhere. */
  keys: readonly string[];
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
