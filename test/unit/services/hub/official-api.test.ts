import { describe, expect, it } from 'vitest';
import { routeRequestOf } from '../../../../services/hub/official-api';

describe('routeRequestOf: the official client’s api call as the hub’s own route', () => {
  it('puts path arguments in the path, encoded, and the body arguments the route reads in the body', () => {
    const call = {
      uri: 'homey:manager:devices',
      operation: 'setCapabilityValue',
      args: { deviceId: 'a/b', capabilityId: 'onoff', value: true, transactionId: 'homey-api-1', transactionTime: 5, opts: {} },
    };
    expect(routeRequestOf(call)).toEqual({
      ok: true,
      request: { method: 'PUT', url: '/api/manager/devices/device/a%2Fb/capability/onoff', body: { value: true, transactionId: 'homey-api-1' } },
    });
  });

  it('adds query arguments when given, and sends no body with a GET', () => {
    const args = { uri: 'homey:device:d1', id: 'homey:device:d1:onoff' };
    expect(routeRequestOf({ uri: 'homey:manager:insights', operation: 'getLogEntries', args: { ...args, resolution: 'lastHour' } })).toEqual({
      ok: true,
      request: { method: 'GET', url: '/api/manager/insights/log/homey%3Adevice%3Ad1/homey%3Adevice%3Ad1%3Aonoff/entry?resolution=lastHour' },
    });
    expect(routeRequestOf({ uri: 'homey:manager:insights', operation: 'getLogEntries', args })).toMatchObject({
      ok: true,
      request: { url: expect.stringMatching(/\/entry$/) },
    });
    expect(routeRequestOf({ uri: 'homey:manager:flow', operation: 'triggerFlow', args: { id: 'f1' } })).toEqual({
      ok: true,
      request: { method: 'POST', url: '/api/manager/flow/flow/f1/trigger', body: {} },
    });
  });

  it.each([
    ['an operation the hub does not serve', { uri: 'homey:manager:apps', operation: 'getApps' }, 404],
    ['an operation named like an object property', { uri: 'homey:manager:devices', operation: 'constructor' }, 404],
    ['a manager named like an object property', { uri: '__proto__', operation: 'getDevices' }, 404],
    ['a missing path argument', { uri: 'homey:manager:devices', operation: 'getDevice', args: {} }, 400],
    ['a path argument that is not a string', { uri: 'homey:manager:devices', operation: 'getDevice', args: { id: 7 } }, 400],
    ['an empty path argument', { uri: 'homey:manager:zones', operation: 'getZone', args: { id: '' } }, 400],
    ['a query argument that is an object', { uri: 'homey:manager:insights', operation: 'getLogEntries', args: { uri: 'u', id: 'i', resolution: {} } }, 400],
  ])('refuses %s', (_name, call, statusCode) => {
    expect(routeRequestOf(call)).toMatchObject({ ok: false, error: { statusCode } });
  });
});
