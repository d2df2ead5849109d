import { describe, expect, it } from 'vitest';
import { deviceLogOf } from '../../../common/insights';

describe('deviceLogOf', () => {
  it.each([
    ['homey:device:abc', 'homey:device:abc:onoff', { deviceId: 'abc', capabilityId: 'onoff' }],
    ['homey:device:abc', 'onoff', { deviceId: 'abc', capabilityId: 'onoff' }],
    ['homey:device:abc', 'homey:device:xyz:onoff', undefined],
    ['homey:device:abc', 'homey:device:abc:', undefined],
    ['homey:device:', 'onoff', undefined],
    ['homey:manager:abc', 'onoff', undefined],
    ['homey:device:a:b', 'onoff', undefined],
  ])('%s + %s', (uri, id, expected) => {
    expect(deviceLogOf(uri, id)).toEqual(expected);
  });
});
