/** The app's two views as a tab list (WAI-ARIA tabs: arrow keys, Home and End move between tabs). */
import { type KeyboardEvent, useRef } from 'react';

export type AppView = 'hubs' | 'webhooks';

const TABS: { view: AppView; label: string }[] = [
  { view: 'hubs', label: 'Hubs' },
  { view: 'webhooks', label: 'Webhooks' },
];

export const tabId = (view: AppView) => `tab-${view}`;
export const panelId = (view: AppView) => `panel-${view}`;

export function ViewTabs({ current, onChange }: { current: AppView; onChange(view: AppView): void }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (event: KeyboardEvent, index: number) => {
    const last = TABS.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onChange(TABS[next]!.view);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Views" className="view-tabs">
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
