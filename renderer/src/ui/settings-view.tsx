/**
 * The Settings view: the interface's preferences (docs/device-controls.md, "App shell"), kept in this app's storage, and the
 * desktop ones (docs/architecture.md, "The desktop": tray, start at login, notifications), kept by main.
 */
import { useStore } from 'zustand';
import type { DesktopPreferencesPatch, NotificationSwitches } from '../../../common/ipc-contract';
import type { NotificationPermission } from '../stores/desktop-store';
import { type Theme, THEMES } from '../stores/preferences-store';
import { EnergyPriceSettings } from './energy-price-settings';
import { HistorySettingsGroup } from './history-settings';
import { useLinked, useStores } from './stores-context';

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
        <p className="hint">Ctrl+1 to Ctrl+9 (⌘ on a Mac) open the first nine hubs; Ctrl+K finds anything; ? lists every shortcut.</p>
      </fieldset>
      <EnergyPriceSettings />
      <DesktopSettings />
      <HistorySettingsGroup />
    </section>
  );
}

const NOTIFICATION_LABELS: Record<keyof NotificationSwitches, string> = {
  smoke: 'Smoke and fire alarms',
  water: 'Water leaks',
  tamper: 'Tampering',
  motion: 'Motion',
  contact: 'Doors and windows opening',
  other: 'Other alarms',
  hubReachability: 'A hub becoming unreachable, or reachable again',
};

const PERMISSION_HINTS: Record<Exclude<NotificationPermission, 'default'>, string> = {
  granted: 'This browser shows Hubdesk’s notifications.',
  denied: 'This browser blocks Hubdesk’s notifications. To see them, allow notifications for this page in the browser’s site settings.',
  unsupported: 'This browser cannot show notifications.',
};

/** Tray, start at login and notifications: saved by main, so each change waits for its answer. */
function DesktopSettings() {
  const { desktop } = useStores();
  const view = useStore(desktop, (s) => s.view);
  const pending = useStore(desktop, (s) => s.pending);
  const error = useStore(desktop, (s) => s.error);
  const permission = useStore(desktop, (s) => s.permission);
  const linked = useLinked();
  if (view === null) return null;
  const { preferences, host } = view;
  const disabled = pending || !linked;
  const change = (patch: DesktopPreferencesPatch) => void desktop.getState().set(patch);
  return (
    <>
      <fieldset className="settings-group">
        <legend>On the desktop</legend>
        {host.tray && (
          <Toggle checked={preferences.closeToTray} disabled={disabled} onChange={(closeToTray) => change({ closeToTray })}>
            Keep Hubdesk running in the tray when its window closes
          </Toggle>
        )}
        {host.launchAtLogin && (
          <Toggle checked={preferences.launchAtLogin} disabled={disabled} onChange={(launchAtLogin) => change({ launchAtLogin })}>
            Start Hubdesk when you log in
          </Toggle>
        )}
        {!host.tray && !host.launchAtLogin && (
          <p className="hint">The tray icon and starting at login belong to the desktop app; Hubdesk in a browser has neither.</p>
        )}
      </fieldset>
      <fieldset className="settings-group">
        <legend>Notifications</legend>
        <p className="hint">About the open hub, while Hubdesk runs.</p>
        {(Object.keys(NOTIFICATION_LABELS) as (keyof NotificationSwitches)[]).map((kind) => (
          <Toggle key={kind} checked={preferences.notify[kind]} disabled={disabled} onChange={(on) => change({ notify: { [kind]: on } })}>
            {NOTIFICATION_LABELS[kind]}
          </Toggle>
        ))}
        {host.notifications === 'browser' && <BrowserPermission permission={permission} onAsk={() => void desktop.getState().requestPermission()} />}
      </fieldset>
      {error && (
        <p className="settings-error" role="alert">
          {error.message}{' '}
          <button type="button" onClick={() => desktop.getState().dismissError()}>
            Dismiss
          </button>
        </p>
      )}
    </>
  );
}

function Toggle({ checked, disabled, onChange, children }: { checked: boolean; disabled: boolean; onChange(checked: boolean): void; children: string }) {
  return (
    <label className="inline settings-toggle">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} /> {children}
    </label>
  );
}

function BrowserPermission({ permission, onAsk }: { permission: NotificationPermission; onAsk(): void }) {
  if (permission !== 'default') return <p className="hint">{PERMISSION_HINTS[permission]}</p>;
  return (
    <p className="hint">
      This browser asks before it shows notifications.{' '}
      <button type="button" onClick={onAsk}>
        Allow notifications
      </button>
    </p>
  );
}
