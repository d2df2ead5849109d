/**
 * Ctrl+1…9 (⌘+1…9 on macOS) opens the n-th hub of the list, as shown in the sidebar. Ignored while
 * the focus is in a text field (the keys may mean something there) and with other modifiers.
 */
import { useEffect } from 'react';
import { hubShortcutIndex } from './hub-shortcut-keys';
import { useStores } from './stores-context';

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);

export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement) return true;
  return target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type);
}

/** Installs the shortcut while mounted; `onOpened` runs after a hub was chosen (e.g. to show the Hubs view). */
export function useHubShortcuts(onOpened: () => void): void {
  const { hubs, openHub } = useStores();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const index = hubShortcutIndex(event);
      if (index === null || event.defaultPrevented || isTextField(event.target)) return;
      const list = hubs.getState().list;
      const hub = list.status === 'loaded' ? list.hubs[index] : undefined;
      if (!hub) return;
      event.preventDefault();
      if (openHub.getState().hubId !== hub.id) openHub.getState().open(hub.id);
      onOpened();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [hubs, openHub, onOpened]);
}
