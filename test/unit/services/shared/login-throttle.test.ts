/**
 * The backoff tables behind the sign-in throttle: the schedule, expiry, the bound on their size, and
 * how client addresses are grouped into networks.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_BACKOFF, BackoffTable, type BackoffPolicy, LoginThrottle, networkOf, throttledMessage } from '../../../../services/shared/login-throttle';

const POLICY: BackoffPolicy = { freeFailures: 0, firstDelayMs: 1_000, maxDelayMs: 60_000, forgetAfterMs: 3_600_000, maxEntries: 3 };

describe('BackoffTable', () => {
  it('follows the account schedule: 5 free failures, then 1 s doubling to the 15-minute cap', () => {
    const table = new BackoffTable(ACCOUNT_BACKOFF);
    const waits: number[] = [];
    for (let failure = 1; failure <= 17; failure++) {
      table.fail('ada', 0);
      waits.push(table.waitMs('ada', 0) / 1000);
    }
    expect(waits).toEqual([0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    expect(table.waitMs('ada', 899_999)).toBe(1);
    expect(table.waitMs('ada', 900_000)).toBe(0);
  });

  it('forgets an entry after a quiet period, and the count starts again', () => {
    const table = new BackoffTable(POLICY);
    table.fail('k', 0);
    table.fail('k', 0);
    expect(table.waitMs('k', 0)).toBe(2_000);
    table.fail('k', POLICY.forgetAfterMs);
    expect(table.waitMs('k', POLICY.forgetAfterMs)).toBe(1_000);
  });

  it('never holds more than maxEntries, dropping the entry whose last failure is oldest', () => {
    const table = new BackoffTable(POLICY);
    for (const key of ['a', 'b', 'c']) table.fail(key, 0);
    table.fail('a', 1); // a is recent again
    table.fail('d', 2);
    expect(table.size).toBe(3);
    expect(table.waitMs('b', 2)).toBe(0); // dropped
    expect(table.waitMs('a', 2)).toBeGreaterThan(0);
    expect(table.waitMs('d', 2)).toBeGreaterThan(0);

    const big = new BackoffTable({ ...POLICY, maxEntries: 1_000 });
    for (let i = 0; i < 20_000; i++) big.fail(`spray-${i}@example.test`.repeat(50), i);
    expect(big.size).toBe(1_000);
  });

  it('takes back a failure counted in advance', () => {
    const table = new BackoffTable(POLICY);
    table.fail('k', 0);
    table.forgiveOne('k');
    expect(table.size).toBe(0);
  });
});

describe('LoginThrottle', () => {
  it('counts an attempt before the password is checked, and a success ends the account backoff', () => {
    let now = 0;
    const throttle = new LoginThrottle(() => now, { account: { ...POLICY, freeFailures: 1 }, network: { ...POLICY, freeFailures: 10 } });
    const first = throttle.begin('Ada@Example.test ', '192.0.2.1');
    const second = throttle.begin('ada@example.test', '192.0.2.1'); // in parallel with the first
    expect(first.allowed && second.allowed).toBe(true);
    expect(throttle.begin('ADA@example.test', '198.51.100.7')).toEqual({ allowed: false, retryAfterSec: 1, reason: 'account' });
    now = 1_000;
    const third = throttle.begin('ada@example.test', '192.0.2.1');
    if (!third.allowed) throw new Error('expected an allowed attempt');
    third.succeeded();
    expect(throttle.begin('ada@example.test', '192.0.2.1').allowed).toBe(true);
  });

  it('words the wait for people', () => {
    expect(throttledMessage({ retryAfterSec: 1, reason: 'account' })).toBe('Too many failed sign-ins for this account. Try again in 1 second.');
    expect(throttledMessage({ retryAfterSec: 64, reason: 'network' })).toBe('Too many failed sign-ins from your network. Try again in 64 seconds.');
    expect(throttledMessage({ retryAfterSec: 900, reason: 'account' })).toBe('Too many failed sign-ins for this account. Try again in 15 minutes.');
  });
});

describe('networkOf', () => {
  it('keeps IPv4 addresses, unwraps IPv4-mapped IPv6, and groups IPv6 by /64', () => {
    expect(networkOf('192.0.2.1')).toBe('network:192.0.2.1');
    expect(networkOf('::ffff:192.0.2.1')).toBe(networkOf('192.0.2.1'));
    expect(networkOf('2001:db8:1:2:3:4:5:6')).toBe('network:2001:db8:1:2::/64');
    expect(networkOf('2001:DB8:1:2::9')).toBe(networkOf('2001:db8:1:2:ffff::1'));
    expect(networkOf('2001:db8:1:3::9')).not.toBe(networkOf('2001:db8:1:2::9'));
    expect(networkOf('fe80::1%eth0')).toBe('network:fe80:0:0:0::/64');
    expect(networkOf('::1')).toBe('network:0:0:0:0::/64');
  });
});
