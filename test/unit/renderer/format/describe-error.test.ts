import { describe, expect, it } from 'vitest';
import { describeDevicesError, describeHubsError } from '../../../../renderer/src/format/describe-error';

describe('describe errors', () => {
  it('says what happened on a hub and what to do', () => {
    expect(describeDevicesError({ code: 'hub-unreachable', message: 'x' }, 'Home')).toEqual({
      text: expect.stringMatching(/^Home cannot be reached right now\./),
      retry: true,
    });
    expect(describeDevicesError({ code: 'hub-session-lost', message: 'x' }, 'Home').text).toMatch(/sign out and sign in again/);
    expect(describeDevicesError({ code: 'forbidden', message: 'x' }, 'Home')).toMatchObject({ retry: false });
    expect(describeDevicesError({ code: 'cloud-unreachable', message: 'x' }, 'Home').text).toMatch(/internet connection/);
  });

  it('uses the message from main for other errors', () => {
    expect(describeHubsError({ code: 'internal', message: 'Disk on fire.' })).toEqual({
      text: expect.stringContaining('Disk on fire.'),
      retry: true,
    });
    expect(describeHubsError({ code: 'signed-out', message: 'x' })).toMatchObject({ retry: false });
  });
});
