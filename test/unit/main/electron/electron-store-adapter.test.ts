import { describe, expect, it, vi } from 'vitest';
import { createElectronStore } from '../../../../main/electron/electron-store-adapter';

// electron-store needs the runtime (it asks `app` for the userData folder): a Map stands in for the file.
const { stores } = vi.hoisted(() => ({ stores: [] as { options: unknown; data: Map<string, unknown> }[] }));
vi.mock('electron-store', () => ({
  default: class {
    readonly data = new Map<string, unknown>();
    constructor(readonly options: unknown) {
      stores.push(this);
    }
    get = (key: string) => this.data.get(key);
    set = (key: string, value: unknown) => {
      if (value === undefined) throw new TypeError('Use `delete()` to clear values');
      this.data.set(key, value);
    };
    delete = (key: string) => void this.data.delete(key);
  },
}));

describe('electron-store adapter', () => {
  it('opens the hubdesk store with keys taken literally', () => {
    createElectronStore();
    expect(stores.at(-1)?.options).toEqual({ name: 'hubdesk', accessPropertiesByDotNotation: false });
  });

  it('gets, sets and deletes, treating undefined as deletion', () => {
    const store = createElectronStore();
    store.set('user:os-keychain', { id: 'u1' });
    expect(store.get('user:os-keychain')).toEqual({ id: 'u1' });
    store.set('user:os-keychain', undefined);
    expect(store.get('user:os-keychain')).toBeUndefined();
    store.set('a.b', 1);
    store.delete('a.b');
    expect(stores.at(-1)?.data.size).toBe(0);
  });
});
