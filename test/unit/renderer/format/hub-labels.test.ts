import { describe, expect, it } from 'vitest';
import { formatFetchedAt, platformLabel, routeInUseLabel, routeOutcomeLabel, routesLabel } from '../../../../renderer/src/format/hub-labels';

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
    expect(routeOutcomeLabel({ kind: 'local-secure', outcome: 'refused', reason: 'connection refused', heardAt: '10.0.0.5:8443' })).toBe(
      'Secure LAN heard at 10.0.0.5:8443: connection refused',
    );
  });

  it('formats the fetch time and refuses a non-date', () => {
    expect(formatFetchedAt('2025-01-01T12:34:56.000Z')).toMatch(/34/);
    expect(formatFetchedAt('yesterday-ish')).toBeNull();
  });
});
