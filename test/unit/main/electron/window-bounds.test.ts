import { beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStore, recordingLogger } from '../../../support/core-fakes';
import { BrowserWindow, fakeElectron, resetFakeElectron, screen } from '../../../support/fake-electron';
import { createMainWindow } from '../../../../main/electron/window';
import { DEFAULT_SIZE, MIN_SIZE, restorePlacement, WINDOW_BOUNDS_KEY } from '../../../../main/electron/window-bounds';

vi.mock('electron', () => import('../../../support/fake-electron'));

const LAPTOP = { x: 0, y: 0, width: 1440, height: 900 };
const RIGHT_MONITOR = { x: 1440, y: 0, width: 2560, height: 1440 };

function open(store = memoryStore()) {
  createMainWindow({
    preloadPath: '/opt/hubdesk/out/preload/index.cjs',
    source: { kind: 'app', root: '/opt/hubdesk/out/renderer' },
    logger: recordingLogger(),
    store,
  });
  const window = BrowserWindow.instances.at(-1);
  if (!window) throw new Error('no window created');
  return { window, store };
}

describe('window placement: restoring', () => {
  beforeEach(() => {
    resetFakeElectron();
    fakeElectron.displays.splice(0, fakeElectron.displays.length, { workArea: LAPTOP }, { workArea: RIGHT_MONITOR });
  });

  it('opens at the default size, centred by Electron, when nothing is stored', () => {
    const { window } = open();
    expect(window.options).toMatchObject(DEFAULT_SIZE);
    expect(window.options).not.toHaveProperty('x');
  });

  it('opens where it was, on the display it was on', () => {
    const store = memoryStore();
    store.set(WINDOW_BOUNDS_KEY, { x: 1600, y: 100, width: 1200, height: 800, maximized: false });
    const { window } = open(store);
    expect(window.options).toMatchObject({ x: 1600, y: 100, width: 1200, height: 800 });
    expect(screen.getDisplayMatching).toHaveBeenCalledWith({ x: 1600, y: 100, width: 1200, height: 800 });
  });

  it('moves a window whose display is gone onto the nearest display that is there', () => {
    fakeElectron.displays.splice(1); // the right monitor was unplugged
    const placement = restorePlacement({ x: 2000, y: 300, width: 1200, height: 800 }, screen);
    expect(placement).toEqual({ x: LAPTOP.width - 1200, y: 100, width: 1200, height: 800, maximized: false });
  });

  it('shrinks a window larger than its display to the work area, and pulls a hanging edge back on screen', () => {
    expect(restorePlacement({ x: -50, y: -20, width: 1500, height: 1000 }, screen)).toEqual({
      x: 0,
      y: 0,
      width: LAPTOP.width,
      height: LAPTOP.height,
      maximized: false,
    });
    expect(restorePlacement({ x: 600, y: 700, width: 800, height: 600 }, screen)).toEqual({
      x: 600,
      y: LAPTOP.height - 600,
      width: 800,
      height: 600,
      maximized: false,
    });
  });

  it('keeps the minimum size where the display allows it', () => {
    expect(restorePlacement({ x: 10, y: 10, width: 100, height: 50 }, screen)).toMatchObject({ width: MIN_SIZE.width, height: MIN_SIZE.height });
  });

  it.each([
    ['nothing', undefined],
    ['a string', 'x=0,y=0'],
    ['missing fields', { x: 0, y: 0 }],
    ['fractions', { x: 0.5, y: 0, width: 800, height: 600 }],
    ['NaN', { x: Number.NaN, y: 0, width: 800, height: 600 }],
    ['a zero size', { x: 0, y: 0, width: 0, height: 600 }],
    ['absurd coordinates', { x: 1e12, y: 0, width: 800, height: 600 }],
    ['a non-boolean maximized', { x: 0, y: 0, width: 800, height: 600, maximized: 'yes' }],
  ])('ignores %s in the store and opens at the default size', (_case, stored) => {
    const store = memoryStore();
    store.set(WINDOW_BOUNDS_KEY, stored);
    const { window } = open(store);
    expect(window.options).toMatchObject(DEFAULT_SIZE);
    expect(window.options).not.toHaveProperty('x');
  });

  it('opens maximised when it was, once it is ready to show', () => {
    const store = memoryStore();
    store.set(WINDOW_BOUNDS_KEY, { x: 100, y: 100, width: 1000, height: 700, maximized: true });
    const { window } = open(store);
    expect(window.maximize).not.toHaveBeenCalled();
    window.emit('ready-to-show');
    expect(window.maximize).toHaveBeenCalled();
    expect(window.show).toHaveBeenCalled();
  });
});

describe('window placement: remembering', () => {
  beforeEach(() => resetFakeElectron());

  it('saves the normal bounds when the window is moved, resized or closed, and the next window opens there', () => {
    const { window, store } = open();
    window.setBounds({ x: 200, y: 150, width: 1000, height: 700 });
    window.emit('moved');
    expect(store.get(WINDOW_BOUNDS_KEY)).toEqual({ x: 200, y: 150, width: 1000, height: 700, maximized: false });
    window.setBounds({ width: 900 });
    window.emit('close');
    expect(store.get(WINDOW_BOUNDS_KEY)).toEqual({ x: 200, y: 150, width: 900, height: 700, maximized: false });

    const next = open(store).window;
    expect(next.options).toMatchObject({ x: 200, y: 150, width: 900, height: 700 });
  });

  it('remembers that it was maximised, with the bounds to return to', () => {
    const { window, store } = open();
    window.setBounds({ x: 10, y: 20, width: 1000, height: 700 });
    window.maximize();
    expect(store.get(WINDOW_BOUNDS_KEY)).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: true });
  });

  it('does not save while minimised (the bounds then are not the ones to come back to)', () => {
    const { window, store } = open();
    window.minimized = true;
    window.emit('close');
    expect(store.get(WINDOW_BOUNDS_KEY)).toBeUndefined();
  });

  it('a store that fails to write is logged, not thrown', () => {
    const store = memoryStore();
    store.set = () => {
      throw new Error('disk full');
    };
    const { window } = open(store);
    expect(() => window.emit('close')).not.toThrow();
  });
});
