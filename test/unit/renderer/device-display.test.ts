import { describe, expect, it } from 'vitest';
import type { Device } from '../../../common/wire';
import { describeDevicesError, describeHubsError } from '../../../renderer/src/format/describe-error';
import { groupByZone, OTHER_ZONE } from '../../../renderer/src/format/group-devices';
import { formatFetchedAt, platformLabel, routeInUseLabel, routeOutcomeLabel, routesLabel } from '../../../renderer/src/format/hub-labels';

const device = (id: string, name: string, zoneName?: string): Device => ({ id, name, class: 'light', capabilities: [], zoneName });

describe('groupByZone', () => {
  it('groups by zone name, zones alphabetically with Other last, devices by name', () => {
    const groups = groupByZone([
      device('1', 'lamp 10', 'Kitchen'),
      device('2', 'Heater'),
      device('3', 'Lamp 2', 'Kitchen'),
      device('4', 'Sofa light', 'Living room'),
      device('5', 'Door', 'Hall'),
      device('6', 'Plug', '  '),
    ]);
    expect(groups.map((g) => g.zone)).toEqual(['Hall', 'Kitchen', 'Living room', OTHER_ZONE]);
    expect(groups[1]!.devices.map((d) => d.name)).toEqual(['Lamp 2', 'lamp 10']);
    expect(groups[3]!.devices.map((d) => d.name)).toEqual(['Heater', 'Plug']);
  });

  it('does not reorder the caller’s array', () => {
    const input = [device('1', 'B'), device('2', 'A')];
    groupByZone(input);
    expect(input.map((d) => d.name)).toEqual(['B', 'A']);
  });
});

describe('hub labels', () => {
  it('names platforms and routes', () => {
    expect(platformLabel('local')).toBe('On your network');
    expect(platformLabel('cloud')).toBe('Cloud hub');
    expect(routesLabel({ 'local-secure': true, local: false, remote: true })).toBe('Reachable over LAN (secure), internet');
    expect(routesLabel({ 'local-secure': false, local: false, remote: false })).toBe('No address known');
  });

  it('says which route is in use and why the others were not taken', () => {
    expect(routeInUseLabel({ route: 'local-secure', rttMs: 3.4 })).toBe('Secure LAN · 3 ms');
    expect(routeOutcomeLabel({ kind: 'local', outcome: 'aborted' })).toBe('Unencrypted LAN: not needed');
    expect(routeOutcomeLabel({ kind: 'local-secure', outcome: 'refused', reason: 'untrusted certificate' })).toBe('Secure LAN: untrusted certificate');
    expect(routeOutcomeLabel({ kind: 'remote', outcome: 'answered', rttMs: 170.2 })).toBe('Remote: 170 ms');
    expect(routeOutcomeLabel({ kind: 'local-secure', outcome: 'timed-out' })).toBe('Secure LAN: no answer');
    expect(routeOutcomeLabel({ kind: 'local', outcome: 'wrong-hub' })).toBe('Unencrypted LAN: another hub answers there');
    expect(routeOutcomeLabel({ kind: 'local-secure', outcome: 'refused', reason: 'connection refused', heardAt: '10.0.0.5:8443' })).toBe('Secure LAN heard at 10.0.0.5:8443: connection refused');
  });

  it('formats the fetch time and refuses a non-date', () => {
    expect(formatFetchedAt('2025-01-01T12:34:56.000Z')).toMatch(/34/);
    expect(formatFetchedAt('yesterday-ish')).toBeNull();
  });
});

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
