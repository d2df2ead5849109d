/**
 * The public face of main/core/desktop/ (docs/architecture.md, "main/core"): what the other sections and the
 * hosts use. Other folders import this section only through here; inside it, modules import each other.
 */
export { startDesktopAlerts } from './desktop-alerts';
export { createDesktopPreferences } from './desktop-preferences';
export type { DesktopHost } from './desktop-preferences';
