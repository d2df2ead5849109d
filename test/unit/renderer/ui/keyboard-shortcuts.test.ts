import { describe, expect, it } from 'vitest';
import { INSPECTOR_SHORTCUTS, inspectorAction, isPaletteKey, isShortcutsKey, modifierLabel, SHORTCUTS } from '../../../../renderer/src/ui/keyboard-shortcuts';

const key = (k: string, modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...modifiers,
});

describe('keyboard shortcuts', () => {
  it('opens the palette with Ctrl+K or ⌘+K only', () => {
    expect([isPaletteKey(key('k', { ctrlKey: true })), isPaletteKey(key('K', { metaKey: true }))]).toEqual([true, true]);
    expect([isPaletteKey(key('k')), isPaletteKey(key('k', { ctrlKey: true, shiftKey: true })), isPaletteKey(key('j', { ctrlKey: true }))]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('opens the sheet with ? (typed with Shift), not with a modifier', () => {
    expect(isShortcutsKey(key('?', { shiftKey: true }))).toBe(true);
    expect([isShortcutsKey(key('?', { ctrlKey: true })), isShortcutsKey(key('/'))]).toEqual([false, false]);
  });

  it('lists each shortcut the keys handle, with the platform’s modifier', () => {
    const keys = SHORTCUTS.map((s) => s.keys.join('+'));
    expect(keys).toEqual(expect.arrayContaining(['Mod+K', 'Mod+1…9', '?']));
    expect([modifierLabel('MacIntel'), modifierLabel('Linux x86_64'), modifierLabel('Win32')]).toEqual(['⌘', 'Ctrl', 'Ctrl']);
  });

  it('maps the inspector’s keys, only without Ctrl, ⌘ or Alt (and without Shift except for /)', () => {
    expect(['j', 'k', 'Enter', 'r', 'c', '/', 'Escape'].map((k) => inspectorAction(key(k)))).toEqual([
      'next',
      'previous',
      'open',
      'replay',
      'copy-curl',
      'search',
      'back',
    ]);
    expect(inspectorAction(key('/', { shiftKey: true }))).toBe('search'); // typed with Shift on some layouts
    expect([
      inspectorAction(key('r', { ctrlKey: true })),
      inspectorAction(key('c', { metaKey: true })),
      inspectorAction(key('j', { altKey: true })),
      inspectorAction(key('J', { shiftKey: true })),
      inspectorAction(key('x')),
    ]).toEqual([null, null, null, null, null]);
  });

  it('lists every inspector key in the sheet', () => {
    expect(INSPECTOR_SHORTCUTS.map((s) => [s.keys.join('+'), s.or ?? ''])).toEqual([
      ['j', '↓'],
      ['k', '↑'],
      ['Enter', ''],
      ['r', ''],
      ['c', ''],
      ['/', ''],
      ['Esc', ''],
    ]);
  });
});
