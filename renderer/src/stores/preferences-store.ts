/**
 * The user's interface preferences (docs/device-controls.md, "App shell"): theme, whether the sidebar is collapsed, the last
 * open hub and the last view; the price of a kWh for the energy view; and where the inspector's split between list and details is. Kept in the renderer's `localStorage` under one key, as JSON.
 *
 * What is stored is untrusted input (another version of the app, an extension, a hand edit may have
 * written it): it is parsed with a schema on read, and every field that does not match falls back to
 * its default on its own, so one bad field does not lose the others. Storage that cannot be read or
 * written (disabled, full, a sandboxed origin) leaves the preferences in memory only.
 */
import { z } from 'zod';
import { createStore, type StoreApi } from 'zustand/vanilla';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const VIEWS = ['hubs', 'energy', 'webhooks', 'settings'] as const;
export type View = (typeof VIEWS)[number];

export const PREFERENCES_KEY = 'hubdesk.preferences';
/** Hub ids come from the cloud's hub record; a longer stored value is not one of ours. */
const MAX_HUB_ID_LENGTH = 512;

export interface Preferences {
  theme: Theme;
  sidebarCollapsed: boolean;
  /** The hub open when the app was last used, opened first at the next start if still listed. */
  lastHubId: string | null;
  lastView: View;
  /** The inspector list's share of the width beside the message details, INSPECTOR_SPLIT_MIN to INSPECTOR_SPLIT_MAX. */
  inspectorSplit: number;
  /** What a kWh costs the user, in `currency` (the energy view's costs); null: not set, no costs shown. */
  energyPrice: number | null;
  /** An ISO 4217 code, e.g. EUR. */
  currency: string;
}

/** A price beyond this per kWh is a typo, not a tariff. */
export const MAX_ENERGY_PRICE = 1000;

export const INSPECTOR_SPLIT_MIN = 0.2;
export const INSPECTOR_SPLIT_MAX = 0.8;

export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({
  theme: 'system',
  sidebarCollapsed: false,
  lastHubId: null,
  lastView: 'hubs',
  inspectorSplit: 0.5,
  energyPrice: null,
  currency: 'EUR',
});

/** Whether `code` is a currency this browser can format (three capital letters it knows). */
export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}

const PreferencesSchema = z.object({
  theme: z.enum(THEMES).catch(DEFAULT_PREFERENCES.theme),
  sidebarCollapsed: z.boolean().catch(DEFAULT_PREFERENCES.sidebarCollapsed),
  lastHubId: z.string().min(1).max(MAX_HUB_ID_LENGTH).nullable().catch(DEFAULT_PREFERENCES.lastHubId),
  lastView: z.enum(VIEWS).catch(DEFAULT_PREFERENCES.lastView),
  inspectorSplit: z.number().min(INSPECTOR_SPLIT_MIN).max(INSPECTOR_SPLIT_MAX).catch(DEFAULT_PREFERENCES.inspectorSplit),
  energyPrice: z.number().min(0).max(MAX_ENERGY_PRICE).nullable().catch(DEFAULT_PREFERENCES.energyPrice),
  currency: z.string().refine(isCurrencyCode).catch(DEFAULT_PREFERENCES.currency),
});

/** The part of the DOM's `Storage` the store uses (a fake in tests). */
export interface PreferencesStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Parses stored text into preferences; anything malformed becomes the default, field by field. */
export function parsePreferences(text: string | null): Preferences {
  if (text === null) return { ...DEFAULT_PREFERENCES };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ...DEFAULT_PREFERENCES };
  // Missing fields are `undefined`, which `.catch` turns into the default as well.
  const parsed = PreferencesSchema.safeParse(value);
  return parsed.success ? parsed.data : { ...DEFAULT_PREFERENCES };
}

export interface PreferencesState extends Preferences {
  setTheme(theme: Theme): void;
  setSidebarCollapsed(collapsed: boolean): void;
  setLastHubId(hubId: string | null): void;
  setLastView(view: View): void;
  /** Clamped to INSPECTOR_SPLIT_MIN…INSPECTOR_SPLIT_MAX. */
  setInspectorSplit(fraction: number): void;
  /** A price out of 0…MAX_ENERGY_PRICE or a currency this browser does not know is refused (false), nothing changed. */
  setEnergyPrice(price: number | null, currency: string): boolean;
}

export type PreferencesStore = StoreApi<PreferencesState>;

/** The browser's `localStorage`, or null where touching it throws (e.g. storage disabled). */
export function browserStorage(): PreferencesStorage | null {
  try {
    return (globalThis as { localStorage?: PreferencesStorage }).localStorage ?? null;
  } catch {
    return null;
  }
}

export function createPreferencesStore(storage: PreferencesStorage | null = browserStorage()): PreferencesStore {
  let initial: Preferences;
  try {
    initial = parsePreferences(storage?.getItem(PREFERENCES_KEY) ?? null);
  } catch {
    initial = { ...DEFAULT_PREFERENCES };
  }

  const store = createStore<PreferencesState>()((set) => {
    const update = (patch: Partial<Preferences>) => set(patch);
    return {
      ...initial,
      setEnergyPrice(energyPrice, currency) {
        if (!isCurrencyCode(currency) || (energyPrice !== null && !(Number.isFinite(energyPrice) && energyPrice >= 0 && energyPrice <= MAX_ENERGY_PRICE)))
          return false;
        update({ energyPrice, currency });
        return true;
      },
      setTheme: (theme) => update({ theme }),
      setSidebarCollapsed: (sidebarCollapsed) => update({ sidebarCollapsed }),
      setLastHubId: (lastHubId) => update({ lastHubId }),
      setLastView: (lastView) => update({ lastView }),
      setInspectorSplit: (fraction) =>
        update({
          inspectorSplit: Math.min(
            INSPECTOR_SPLIT_MAX,
            Math.max(INSPECTOR_SPLIT_MIN, Number.isFinite(fraction) ? fraction : DEFAULT_PREFERENCES.inspectorSplit),
          ),
        }),
    };
  });

  const fields = Object.keys(DEFAULT_PREFERENCES) as (keyof Preferences)[];
  store.subscribe((state, previous) => {
    if (fields.every((field) => state[field] === previous[field])) return;
    const stored = Object.fromEntries(fields.map((field) => [field, state[field]])) as unknown as Preferences;
    try {
      storage?.setItem(PREFERENCES_KEY, JSON.stringify(stored));
    } catch {
      // Full or disabled storage: the preference holds for this run only.
    }
  });
  return store;
}

/**
 * Remembers the open hub as the last hub. A hub being closed (sign-out, a failed list) is not a choice
 * of the user's, so `null` does not overwrite what was remembered. Returns the function that stops.
 */
export function rememberOpenHub(preferences: PreferencesStore, openHub: StoreApi<{ hubId: string | null }>): () => void {
  return openHub.subscribe((state) => {
    if (state.hubId !== null && state.hubId !== preferences.getState().lastHubId) preferences.getState().setLastHubId(state.hubId);
  });
}
