/**
 * The main window's size and position, remembered between runs (docs/device-controls.md, "App shell"). Stored in the host's
 * KeyValueStore (electron-store) under one key; what is read back is untrusted (a hand edit, another
 * version, a display that is gone): it is validated, sized to fit its display's work area, and moved
 * onto that display — `screen.getDisplayMatching` gives the display the rectangle overlaps most, or the
 * nearest one when it is on none — so the window never opens where nobody can see it.
 */
import { z } from 'zod';
import type { KeyValueStore } from '../core/shared';

export const WINDOW_BOUNDS_KEY = 'window:bounds';
export const DEFAULT_SIZE = { width: 1100, height: 760 } as const;
export const MIN_SIZE = { width: 720, height: 480 } as const;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowPlacement extends Rect {
  maximized: boolean;
}

/** The part of Electron's `screen` used here. */
export interface DisplayLocator {
  getDisplayMatching(rect: Rect): { workArea: Rect };
}

const coordinate = z.number().int().min(-100_000).max(100_000);
const length = z.number().int().min(1).max(100_000);
const StoredBoundsSchema = z.object({ x: coordinate, y: coordinate, width: length, height: length, maximized: z.boolean().default(false) });

/** Where to open the window: the stored placement made to fit a visible display, or null (no usable record). */
export function restorePlacement(stored: unknown, screen: DisplayLocator): WindowPlacement | null {
  const parsed = StoredBoundsSchema.safeParse(stored);
  if (!parsed.success) return null;
  const { maximized, ...rect } = parsed.data;
  const area = screen.getDisplayMatching(rect).workArea;
  const width = clamp(rect.width, Math.min(MIN_SIZE.width, area.width), area.width);
  const height = clamp(rect.height, Math.min(MIN_SIZE.height, area.height), area.height);
  // Wholly inside the display's work area: no edge, title bar included, is off screen or under a panel.
  const x = clamp(rect.x, area.x, area.x + area.width - width);
  const y = clamp(rect.y, area.y, area.y + area.height - height);
  return { x, y, width, height, maximized };
}

/** The part of a BrowserWindow whose placement is remembered. */
export interface PlacedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  on(event: 'close' | 'resized' | 'moved' | 'maximize' | 'unmaximize', listener: () => void): unknown;
}

/** Saves the window's normal (not maximised) bounds and whether it is maximised, whenever they settle and on close. */
export function rememberPlacement(window: PlacedWindow, store: KeyValueStore, onError: (error: unknown) => void = () => {}): void {
  const save = () => {
    if (window.isDestroyed() || window.isMinimized()) return;
    const { x, y, width, height } = window.getNormalBounds();
    try {
      store.set(WINDOW_BOUNDS_KEY, { x, y, width, height, maximized: window.isMaximized() });
    } catch (error) {
      onError(error);
    }
  };
  for (const event of ['close', 'resized', 'moved', 'maximize', 'unmaximize'] as const) window.on(event, save);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}
