/** The Settings view (issue 13 §1): the interface's preferences, kept in this app's storage. Later preferences join here. */
import { useStore } from 'zustand';
import { type Theme, THEMES } from '../stores/preferences-store';
import { useStores } from './stores-context';

const THEME_LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

export function SettingsView() {
  const { preferences } = useStores();
  const theme = useStore(preferences, (s) => s.theme);
  const collapsed = useStore(preferences, (s) => s.sidebarCollapsed);
  return (
    <section className="settings-view" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <fieldset className="settings-group">
        <legend>Theme</legend>
        {THEMES.map((value) => (
          <label key={value} className="inline">
            <input type="radio" name="theme" value={value} checked={theme === value} onChange={() => preferences.getState().setTheme(value)} />{' '}
            {THEME_LABELS[value]}
          </label>
        ))}
        <p className="hint">System follows your computer's light or dark appearance.</p>
      </fieldset>
      <fieldset className="settings-group">
        <legend>Layout</legend>
        <label className="inline">
          <input type="checkbox" checked={collapsed} onChange={(event) => preferences.getState().setSidebarCollapsed(event.target.checked)} /> Collapse the
          sidebar
        </label>
        <p className="hint">Ctrl+1 to Ctrl+9 (⌘ on a Mac) open the first nine hubs.</p>
      </fieldset>
    </section>
  );
}
