/**
 * The app-wide keys besides the hub shortcuts: Ctrl/⌘+K opens the command palette (even from a text
 * field: it is not a key text fields use), `?` the shortcuts sheet (not while typing, where `?` is text).
 */
import { useEffect } from 'react';
import { isPaletteKey, isShortcutsKey } from './keyboard-shortcuts';
import { isTextField } from './use-hub-shortcuts';

export function useAppShortcuts(handlers: { onPalette(): void; onShortcuts(): void }): void {
  const { onPalette, onShortcuts } = handlers;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (isPaletteKey(event)) {
        event.preventDefault();
        onPalette();
      } else if (isShortcutsKey(event) && !isTextField(event.target) && !(event.target instanceof HTMLSelectElement)) {
        event.preventDefault();
        onShortcuts();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [onPalette, onShortcuts]);
}
