/**
 * The webhook inspector's keys (docs/webhooks-app.md, "Keyboard"; the table is `inspectorAction` in
 * keyboard-shortcuts.ts): each part of the inspector passes the actions it can do now, and a key
 * without one here is left alone. Never while typing (a text field or a select) or inside a dialog, and
 * never a key something else already handled. Enter and Escape act only where they would do nothing
 * else: Enter on a button presses it, so it opens only from outside one.
 */
import { useEffect, useRef } from 'react';
import { type InspectorAction, inspectorAction } from './keyboard-shortcuts';
import { isTextField } from './use-hub-shortcuts';

export type InspectorActions = Partial<Record<InspectorAction, () => void>>;

/** Inputs that take no typing: a key pressed on them is the inspector's. */
const UNTYPED_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset']);
/** Elements that give Enter a meaning of their own. */
const ENTER_TAKERS = 'button, a[href], input, select, textarea, summary, [role="separator"], [contenteditable="true"]';

function ignored(event: KeyboardEvent, action: InspectorAction): boolean {
  const target = event.target;
  if (event.defaultPrevented || event.isComposing || isTextField(target) || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement && !UNTYPED_INPUTS.has(target.type)) return true; // a date, a colour…
  if (!(target instanceof Element)) return false;
  if (target.closest('dialog')) return true;
  return action === 'open' && target.closest(ENTER_TAKERS) !== null;
}

export function useInspectorKeys(actions: InspectorActions): void {
  // The latest actions, without installing the listener again at every render.
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const action = inspectorAction(event);
      const run = action === null ? undefined : latest.current[action];
      if (run === undefined || action === null || ignored(event, action)) return;
      event.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
