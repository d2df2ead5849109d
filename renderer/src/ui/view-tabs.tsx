/**
 * The app's views as a tab list (WAI-ARIA tabs: arrow keys, Home and End move between tabs). In the
 * sidebar the list is vertical: Up and Down move as well as Left and Right.
 */
import { type KeyboardEvent, useRef } from 'react';
import type { View } from '../stores/preferences-store';

export type AppView = View;

const TABS: { view: AppView; label: string }[] = [
  { view: 'hubs', label: 'Hubs' },
  { view: 'energy', label: 'Energy' },
  { view: 'webhooks', label: 'Webhooks' },
  { view: 'settings', label: 'Settings' },
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
      {TABS.map(({ view, label }, index) => (
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
        >
          {label}
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
