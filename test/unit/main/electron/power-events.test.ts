import { describe, expect, it, vi } from 'vitest';
import { powerMonitor } from '../../../support/fake-electron';
import { wakeOnResume } from '../../../../main/electron/power-events';

vi.mock('electron', () => import('../../../support/fake-electron'));

describe('wakeOnResume', () => {
  it('wakes the core on resume and on unlock, and stops when asked', () => {
    const core = { wake: vi.fn() };
    const stop = wakeOnResume(core);
    powerMonitor.emit('resume');
    powerMonitor.emit('unlock-screen');
    powerMonitor.emit('suspend');
    expect(core.wake.mock.calls).toEqual([['resumed'], ['resumed']]);
    stop();
    powerMonitor.emit('resume');
    expect(core.wake).toHaveBeenCalledTimes(2);
    expect(powerMonitor.listenerCount('resume')).toBe(0);
  });
});
