import { describe, expect, it } from 'vitest';
import { parseBrowserHostArgs } from '../../../../main/browser-host/cli';

describe('browser host arguments', () => {
  it('builds the renderer only when its sources changed, unless told to always or never build', () => {
    expect(parseBrowserHostArgs([], {}).build).toBe('auto');
    expect(parseBrowserHostArgs(['--build'], {}).build).toBe('always');
    expect(parseBrowserHostArgs(['--skip-build'], {}).build).toBe('never');
    expect(() => parseBrowserHostArgs(['--build', '--skip-build'], {})).toThrow(/exclude each other/);
  });
});
