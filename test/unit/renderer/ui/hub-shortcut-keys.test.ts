import { describe, expect, it } from 'vitest';
import { hubShortcutIndex } from '../../../../renderer/src/ui/hub-shortcut-keys';

const key = (k: string, modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...modifiers,
});

describe('hub shortcuts', () => {
  it('maps Ctrl+1…9 and ⌘+1…9 to the hub index 0…8', () => {
    expect(hubShortcutIndex(key('1', { ctrlKey: true }))).toBe(0);
    expect(hubShortcutIndex(key('9', { metaKey: true }))).toBe(8);
  });

  it('ignores other keys, no modifier and extra modifiers', () => {
    expect(hubShortcutIndex(key('0', { ctrlKey: true }))).toBeNull();
    expect(hubShortcutIndex(key('a', { ctrlKey: true }))).toBeNull();
    expect(hubShortcutIndex(key('2'))).toBeNull();
    expect(hubShortcutIndex(key('2', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(hubShortcutIndex(key('2', { ctrlKey: true, altKey: true }))).toBeNull();
  });
});
