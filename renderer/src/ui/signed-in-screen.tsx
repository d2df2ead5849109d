/** Signed in: the app shell — a fixed header (who, how the sign-in is kept), a collapsible sidebar (views, hubs) and the scrolling content region. */
import { useCallback, useDeferredValue, useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { SessionView, UserView } from '../../../common/ipc-contract';
import { ActionError } from './action-error';
import { DevicesPanel } from './devices-panel';
import { EnergyView } from './energy-view';
import { HubList } from './hub-list';
import { Notices } from './notices';
import { PaletteDialog } from './palette-dialog';
import { SettingsView } from './settings-view';
import { SignOutButton } from './sign-out-button';
import { ShortcutsDialog } from './shortcuts-dialog';
import { useStores } from './stores-context';
import { useAppShortcuts } from './use-app-shortcuts';
import { useHubShortcuts } from './use-hub-shortcuts';
import { useMediaQuery } from './use-media-query';
import { type AppView, ViewPanel, ViewTabs } from './view-tabs';
import { WebhooksView } from './webhooks-view';

/** Where the sidebar becomes a rail of icons (app-shell.css, the same width). */
const NARROW = '(max-width: 960px)';

const STORAGE_HINT: Partial<Record<SessionView['tokenStorage'], string>> = {
  'memory-only': 'Sign-in kept until Hubdesk quits',
  'plaintext-opt-in': 'Sign-in saved without encryption',
};

export function SignedInScreen({ user, view, onView }: { user: UserView; view: AppView; onView(view: AppView): void }) {
  const { session, preferences } = useStores();
  const tokenStorage = useStore(session, (s) => s.session?.tokenStorage);
  const collapsed = useStore(preferences, (s) => s.sidebarCollapsed);
  // A narrow window keeps the views as a rail of icons; the toggle opens the whole sidebar over the content.
  const narrow = useMediaQuery(NARROW);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawer = narrow && drawerOpen;
  const sidebar = narrow ? (drawer ? 'drawer' : 'rail') : collapsed ? 'collapsed' : 'expanded';
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  // Escape folds the drawer wherever the focus is.
  useEffect(() => {
    if (!drawer) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && closeDrawer();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawer, closeDrawer]);
  const fullName = `${user.firstname} ${user.lastname}`.trim();
  const hint = tokenStorage ? STORAGE_HINT[tokenStorage] : undefined;
  const showHubs = useCallback(() => {
    setDrawerOpen(false);
    onView('hubs');
  }, [onView]);
  const showView = useCallback(
    (next: AppView) => {
      setDrawerOpen(false);
      onView(next);
    },
    [onView],
  );
  const showSettings = useCallback(() => onView('settings'), [onView]);
  useHubShortcuts(showHubs);
  // As docs/architecture.md, "The desktop" says: the command palette (Ctrl/⌘+K) and the shortcuts sheet (?), one open at a time.
  const [dialog, setDialog] = useState<'palette' | 'shortcuts' | null>(null);
  const closeDialog = useCallback(() => setDialog(null), []);
  useAppShortcuts({ onPalette: useCallback(() => setDialog('palette'), []), onShortcuts: useCallback(() => setDialog('shortcuts'), []) });

  // The shell is drawn first; the view's content follows in a render React may interrupt, so signing
  // in is not one long task (docs/benchmarks.md, "First render in steps"). Later switches of view are interruptible the same way.
  const shown = useDeferredValue(view, null);

  // The app shell (docs/device-controls.md, "App shell"): header and sidebar stay put, only the content region scrolls.
  return (
    <div className="signed-in app-shell" data-sidebar={sidebar}>
      <a className="skip-link" href="#app-content">
        Skip to the content
      </a>
      <header className="app-header">
        <button
          type="button"
          className="sidebar-toggle"
          aria-label="Sidebar"
          aria-expanded={narrow ? drawer : !collapsed}
          aria-controls="app-sidebar"
          title={(narrow ? drawer : !collapsed) ? 'Hide the sidebar' : 'Show the sidebar'}
          onClick={() => (narrow ? setDrawerOpen(!drawerOpen) : preferences.getState().setSidebarCollapsed(!collapsed))}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <h1>Hubdesk</h1>
        <div className="account">
          <p className="user">
            {fullName && <span className="user-name">{fullName}</span>}
            {user.email && <span className="user-email">{user.email}</span>}
            {hint && <span className="storage-hint">{hint}</span>}
          </p>
          <SignOutButton />
        </div>
      </header>
      <ActionError />
      <Notices />
      <div className="app-body">
        {/* On the Webhooks tab the sidebar is the view tabs alone: the inspector's panes need the width (docs/webhooks-app.md, "Layout"). */}
        {/* Narrow: a rail of the views' icons, or (toggled) the whole sidebar over the content, closed by Escape or a choice. */}
        <aside id="app-sidebar" className="app-sidebar" aria-label="Sidebar" hidden={!narrow && collapsed} data-view={view}>
          <ViewTabs current={view} onChange={showView} vertical />
          {view !== 'webhooks' && (!narrow || drawer) && <HubList onOpen={showHubs} />}
        </aside>
        {drawer && <div className="drawer-backdrop" aria-hidden="true" onClick={closeDrawer} />}
        <main id="app-content" className="app-content" tabIndex={-1} data-view={shown}>
          {shown === 'hubs' && (
            <ViewPanel view="hubs" className="hubs-view">
              <DevicesPanel />
            </ViewPanel>
          )}
          {shown === 'energy' && (
            <ViewPanel view="energy" className="energy-panel">
              <EnergyView onOpenSettings={showSettings} />
            </ViewPanel>
          )}
          {shown === 'webhooks' && (
            <ViewPanel view="webhooks">
              <WebhooksView />
            </ViewPanel>
          )}
          {shown === 'settings' && (
            <ViewPanel view="settings">
              <SettingsView />
            </ViewPanel>
          )}
        </main>
      </div>
      {/* Mounted only while open: nothing of them is built on sign-in or with each render of the shell. */}
      {dialog === 'palette' && <PaletteDialog open onClose={closeDialog} onView={onView} />}
      {dialog === 'shortcuts' && <ShortcutsDialog open onClose={closeDialog} />}
    </div>
  );
}
