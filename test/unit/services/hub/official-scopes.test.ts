/**
 * Our scope names and the official client's: every one of ours has a `homey.` form that maps back to
 * it (scopes added later included), and the client's own scope check (HomeyAPIV3.instanceOfScope, run
 * here as it ships) lets a session call exactly the operations its scopes allow.
 */
import { HomeyAPIV3 } from 'homey-api';
import { describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../../../common/wire';
import { grants } from '../../../../services/hub/scope-grants';
import { officialScopes, scopeNamed } from '../../../../services/hub/official-scopes';

/** The scopes the client's bundled specification (HomeyAPIV3Local.json) lists for the operations the reference hub serves. */
const OPERATION_SCOPES = {
  getDevices: 'homey.device.readonly',
  setCapabilityValue: 'homey.device.control',
  getZones: 'homey.zone.readonly',
  getFlows: 'homey.flow.readonly',
  triggerFlow: 'homey.flow.start',
  getLogs: 'homey.insights.readonly',
};

const clientAllows = (session: readonly Scope[], required: string): boolean =>
  officialScopes(session).some((available) =>
    (HomeyAPIV3 as unknown as { instanceOfScope(a: string, b: string): boolean }).instanceOfScope(required, available),
  );

describe('scope names', () => {
  it.each(SCOPES)('reads %s in both forms, and each official name of it back as something it grants', (scope) => {
    expect(scopeNamed(scope)).toBe(scope);
    for (const name of officialScopes([scope])) {
      const read = scopeNamed(name);
      if (read !== undefined) expect(grants([scope], read), name).toBe(true);
    }
  });

  it('never reads a name as wider than it is', () => {
    expect(scopeNamed('homey.device.readonly')).toBe('devices.readonly');
    expect(scopeNamed('homey.flow.readonly')).toBe('flow.readonly');
    for (const name of [
      'homey.zone.readonly',
      'homey.zone',
      'homey',
      'homey.',
      'homey.alarm',
      'device.readonly',
      'HOMEY.device',
      'homey.homey.flow.start',
      '__proto__',
      'homey.__proto__',
    ]) {
      expect(scopeNamed(name)).toBeUndefined();
    }
  });

  it.each<[string, Scope[], (keyof typeof OPERATION_SCOPES)[]]>([
    ['every scope', [...SCOPES], ['getDevices', 'setCapabilityValue', 'getZones', 'getFlows', 'triggerFlow', 'getLogs']],
    ['devices', ['devices'], ['getDevices', 'setCapabilityValue', 'getZones']],
    ['devices.readonly', ['devices.readonly'], ['getDevices', 'getZones']],
    ['flow.start', ['flow.start'], ['getFlows', 'triggerFlow']],
    ['flow.readonly', ['flow.readonly'], ['getFlows']],
    ['insights.readonly', ['insights.readonly'], ['getLogs']],
    ['nothing', [], []],
  ])('lets the client call what a session with %s may do, and nothing else', (_name, session, allowed) => {
    for (const [operation, required] of Object.entries(OPERATION_SCOPES)) {
      expect(clientAllows(session, required), operation).toBe((allowed as string[]).includes(operation));
    }
  });
});
