/**
 * The colours a chart paints with, read from the theme (styles/tokens.css: custom properties written with
 * `light-dark()`). A canvas cannot use CSS variables, so each is resolved through a probe element's
 * computed colour, and read again when the theme preference or the system's scheme changes.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { useStores } from './stores-context';

export interface ChartTheme {
  line: string;
  text: string;
  grid: string;
  /** A boolean's on-bands and the bars' fill: the line colour, translucent. */
  fill: string;
}

export function readChartTheme(root: HTMLElement = document.body): ChartTheme {
  const probe = document.createElement('span');
  probe.hidden = true;
  root.append(probe);
  const colour = (variable: string) => {
    probe.style.color = `var(${variable})`;
    return getComputedStyle(probe).color;
  };
  const line = colour('--accent');
  const theme = { line, text: colour('--muted'), grid: colour('--border'), fill: translucent(line, 0.3) };
  probe.remove();
  return theme;
}

/** `rgb(r, g, b)` as `rgba(r, g, b, alpha)`; any other form is returned as it is. */
function translucent(colour: string, alpha: number): string {
  const match = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(colour);
  return match ? `rgba(${match[1]}, ${match[2]}, ${match[3]}, ${alpha})` : colour;
}

const DARK = '(prefers-color-scheme: dark)';
let cached: { key: string; theme: ChartTheme } | null = null;

/** The theme's colours, read again only when the theme attribute (ui/theme.ts) or the system's scheme changed. */
function currentTheme(): ChartTheme {
  const key = `${document.documentElement.dataset.theme ?? ''}:${matchMedia(DARK).matches}`;
  if (cached?.key !== key) cached = { key, theme: readChartTheme() };
  return cached.theme;
}

/** The chart colours of the current theme (a new object when the theme changed, so charts redraw). */
export function useChartTheme(): ChartTheme {
  const { preferences } = useStores();
  const subscribe = useCallback(
    (changed: () => void) => {
      const query = matchMedia(DARK);
      query.addEventListener('change', changed);
      // followTheme subscribed first, so the document's theme attribute is already the new one here.
      const stop = preferences.subscribe(changed);
      return () => {
        query.removeEventListener('change', changed);
        stop();
      };
    },
    [preferences],
  );
  return useSyncExternalStore(subscribe, currentTheme);
}
