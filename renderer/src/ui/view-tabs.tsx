/**
 * The app's views as a tab list (WAI-ARIA tabs: arrow keys, Home and End move between tabs). In the
 * sidebar the list is vertical: Up and Down move as well as Left and Right. Each tab has an icon and its
 * label; a narrow window's sidebar shows the icons alone (docs/device-controls.md, "App shell").
 */
import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { LineIcon } from './line-icon';
import type { View } from '../stores/preferences-store';

export type AppView = View;

/** Each view's icon: all a narrow window's sidebar shows of its tab, the label then being the tab's accessible name. */
const TABS: { view: AppView; label: string; icon: ReactNode }[] = [
  { view: 'hubs', label: 'Hubs', icon: <path d="M4 11l8-6.5 8 6.5M6.5 9.5V19h11V9.5M10 19v-5h4v5" /> },
  { view: 'energy', label: 'Energy', icon: <path d="M13 3L6 13.5h5.5L10 21l8-11h-5.5z" /> },
  { view: 'webhooks', label: 'Webhooks', icon: <path d="M9 7a3 3 0 1 1 4.5 2.6L10 16M6.5 14.5a3 3 0 1 0 3.5 4.4h7.5M17.5 12a3 3 0 1 1-1.2 5.8" /> },
  { view: 'settings', label: 'Settings', icon: <path d="M4 7h10M18 7h2M4 17h2M10 17h10M14 4.5v5M8 14.5v5" /> },
];

export const tabId = (view: AppView) => `tab-${view}`;
export const panelId = (view: AppView) => `panel-${view}`;

export function ViewTabs({ current, onChange, vertical = false }: { current: AppView; onChange(view: AppView): void; vertical?: boolean }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (event: KeyboardEvent, index: number) => {
    const last = TABS.length - 1;
    const forward = index === last ? 0 : index + 1;
    const back = index === 0 ? last : index - 1;
    const upDown = vertical ? { ArrowDown: forward, ArrowUp: back } : {};
    const next = ({ ArrowRight: forward, ArrowLeft: back, Home: 0, End: last, ...upDown } as Record<string, number | undefined>)[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onChange(TABS[next]!.view);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Views" aria-orientation={vertical ? 'vertical' : 'horizontal'} className="view-tabs">
      {TABS.map(({ view, label, icon }, index) => (
        <button
          key={view}
          ref={(element) => void (refs.current[index] = element)}
          type="button"
          role="tab"
          id={tabId(view)}
          aria-controls={panelId(view)}
          aria-selected={view === current}
          tabIndex={view === current ? 0 : -1}
          onClick={() => onChange(view)}
          onKeyDown={(event) => move(event, index)}
          title={label}
        >
          <LineIcon className="tab-icon" size={20}>
            {icon}
          </LineIcon>
          <span className="tab-label">{label}</span>
        </button>
      ))}
    </div>
  );
}

/** The panel a tab controls. */
export function ViewPanel({ view, className, children }: { view: AppView; className?: string; children: React.ReactNode }) {
  return (
    <div role="tabpanel" id={panelId(view)} aria-labelledby={tabId(view)} className={className}>
      {children}
    </div>
  );
}
