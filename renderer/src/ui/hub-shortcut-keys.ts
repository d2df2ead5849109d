/** Which hub a key press asks for (docs/device-controls.md, "App shell"): Ctrl+1…9, or ⌘+1…9 on macOS, without other modifiers. No DOM: unit-tested in Node. */

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** The hub index (0-based) a key press asks for, or null when it is not a hub shortcut. */
export function hubShortcutIndex(event: KeyPress): number | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return null;
  if (!/^[1-9]$/.test(event.key)) return null;
  return Number(event.key) - 1;
}
