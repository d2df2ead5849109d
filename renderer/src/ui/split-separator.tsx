/**
 * The handle between the inspector's list and its message details (docs/webhooks-app.md, "Outcomes and refusals"): dragged with the
 * pointer, or focused and moved with the arrow keys (5 % a step; Home and End to the bounds), as a
 * window splitter is (WAI-ARIA `separator` with a value). It sets the first pane's share of the
 * container; the share is a remembered preference.
 */
import type { KeyboardEvent, PointerEvent } from 'react';
import { INSPECTOR_SPLIT_MAX, INSPECTOR_SPLIT_MIN } from '../stores/preferences-store';

const STEP = 0.05;

export function SplitSeparator({ fraction, onChange, label }: { fraction: number; onChange(fraction: number): void; label: string }) {
  const onKeyDown = (event: KeyboardEvent) => {
    const next =
      event.key === 'ArrowLeft'
        ? fraction - STEP
        : event.key === 'ArrowRight'
          ? fraction + STEP
          : event.key === 'Home'
            ? INSPECTOR_SPLIT_MIN
            : event.key === 'End'
              ? INSPECTOR_SPLIT_MAX
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    onChange(next);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const handle = event.currentTarget;
    const container = handle.parentElement;
    if (!container) return;
    handle.setPointerCapture(event.pointerId);
    const move = (moved: globalThis.PointerEvent) => {
      const box = container.getBoundingClientRect();
      if (box.width > 0) onChange((moved.clientX - box.left) / box.width);
    };
    const stop = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', stop);
      handle.removeEventListener('pointercancel', stop);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', stop);
    handle.addEventListener('pointercancel', stop);
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuemin={Math.round(INSPECTOR_SPLIT_MIN * 100)}
      aria-valuemax={Math.round(INSPECTOR_SPLIT_MAX * 100)}
      aria-valuenow={Math.round(fraction * 100)}
      tabIndex={0}
      className="split-separator"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
    />
  );
}
