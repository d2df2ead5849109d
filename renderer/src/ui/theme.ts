/**
 * Applies the theme preference to the document: `data-theme` on the root element ("system", "light" or
 * "dark"). styles/tokens.css keys its custom properties on it; "system" follows `prefers-color-scheme`.
 */
import type { PreferencesStore, Theme } from '../stores/preferences-store';

export function applyTheme(root: HTMLElement, theme: Theme): void {
  root.dataset.theme = theme;
}

/** Applies the current theme at once (before the first paint) and every change; returns the function that stops. */
export function followTheme(preferences: PreferencesStore, root: HTMLElement = document.documentElement): () => void {
  applyTheme(root, preferences.getState().theme);
  return preferences.subscribe((state, previous) => {
    if (state.theme !== previous.theme) applyTheme(root, state.theme);
  });
}
