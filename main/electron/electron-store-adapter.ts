/** KeyValueStore over electron-store (a JSON file in the app's userData folder, written atomically). */
import Store from 'electron-store';
import type { KeyValueStore } from '../core/shared';

export function createElectronStore(): KeyValueStore {
  // Keys are opaque (`user:os-keychain`, …): dots must not be read as paths into nested objects.
  const store = new Store<Record<string, unknown>>({ name: 'hubdesk', accessPropertiesByDotNotation: false });
  return {
    get: (key) => store.get(key),
    // electron-store refuses `undefined`; for a key-value store it means "no value".
    set: (key, value) => (value === undefined ? store.delete(key) : store.set(key, value)),
    delete: (key) => store.delete(key),
  };
}
