import { describe, expect, it } from 'vitest';
import { createFavourites, FAVOURITES_KEY } from '../../../../../main/core/hubs/favourites';
import { memoryStore, recordingLogger } from '../../../../support/core-fakes';

describe('favourites', () => {
  it('keeps favourites per hub in pin order, survives a restart, and unpins', () => {
    const store = memoryStore();
    const favourites = createFavourites(store, recordingLogger());
    favourites.set('hub-1', 'lamp', true);
    favourites.set('hub-1', 'fan', true);
    favourites.set('hub-1', 'lamp', true); // pinning twice does not duplicate
    favourites.set('hub-2', 'heater', true);
    const restarted = createFavourites(store, recordingLogger());
    expect(restarted.get('hub-1')).toEqual(['fan', 'lamp']);
    restarted.set('hub-2', 'heater', false);
    expect(restarted.get('hub-2')).toEqual([]);
    expect(store.get(FAVOURITES_KEY)).toEqual({ 'hub-1': ['fan', 'lamp'] });
    expect(restarted.get('toString')).toEqual([]);
  });

  it('reads bad stored data as no favourites, logs it once, and replaces it on the next change', () => {
    const store = memoryStore({ [FAVOURITES_KEY]: { 'hub-1': 'lamp' } });
    const logger = recordingLogger();
    const favourites = createFavourites(store, logger);
    expect(favourites.get('hub-1')).toEqual([]);
    expect(favourites.get('hub-1')).toEqual([]);
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    favourites.set('hub-1', 'fan', true);
    expect(store.get(FAVOURITES_KEY)).toEqual({ 'hub-1': ['fan'] });
  });
});
