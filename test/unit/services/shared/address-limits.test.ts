import { describe, expect, it } from 'vitest';
import { AddressTable, DEFAULT_ADDRESS_LIMITS, exemptList } from '../../../../services/shared/address-limits';

const LIMITS = {
  maxConnectionsPerAddress: 3,
  newConnectionsPerSecondPerAddress: 2,
  newConnectionBurstPerAddress: 4,
  maxRequestsPerAddress: 2,
  exemptAddresses: [],
};

function table() {
  let now = 0;
  return { table: new AddressTable(LIMITS, () => now), advance: (ms: number) => (now += ms) };
}

describe('AddressTable', () => {
  it('counts connections held per address, and frees a slot on close', () => {
    const { table: t } = table();
    expect([t.openConnection('a'), t.openConnection('a'), t.openConnection('a')]).toEqual([undefined, undefined, undefined]);
    expect(t.openConnection('a')).toBe('connections');
    expect(t.openConnection('b')).toBeUndefined(); // another address has its own
    t.closed('a');
    expect(t.openConnection('a')).toBeUndefined();
  });

  it('lets a burst through at once, then new connections at the sustained rate', () => {
    const { table: t, advance } = table();
    for (let i = 0; i < 3; i++) {
      expect(t.openConnection('a')).toBeUndefined();
      t.closed('a');
    }
    expect(t.openConnection('a')).toBeUndefined();
    t.closed('a');
    expect(t.openConnection('a')).toBe('rate'); // the burst of four is spent
    advance(499);
    expect(t.openConnection('a')).toBe('rate');
    advance(1); // two a second: one more after 500 ms
    expect(t.openConnection('a')).toBeUndefined();
    expect(t.openConnection('a')).toBe('rate');
  });

  it('does not charge the rate for a connection refused as one too many held', () => {
    const { table: t } = table();
    for (let i = 0; i < 3; i++) t.openConnection('a');
    for (let i = 0; i < 10; i++) expect(t.openConnection('a')).toBe('connections');
    t.closed('a');
    expect(t.openConnection('a')).toBeUndefined(); // the fourth token was still there
  });

  it('counts requests in flight per address', () => {
    const { table: t } = table();
    expect([t.startRequest('a'), t.startRequest('a'), t.startRequest('a')]).toEqual([true, true, false]);
    expect(t.startRequest('b')).toBe(true);
    t.answered('a');
    expect(t.startRequest('a')).toBe(true);
  });

  it('forgets an address once it holds nothing and its burst is back, not before', () => {
    const { table: t, advance } = table();
    t.openConnection('a');
    t.closed('a');
    t.sweep();
    expect(t.size).toBe(1); // a token short: forgetting it would hand it a full burst
    advance(500);
    t.sweep();
    expect(t.size).toBe(0);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new AddressTable({ ...DEFAULT_ADDRESS_LIMITS, maxRequestsPerAddress: 0 })).toThrow(/maxRequestsPerAddress/);
    expect(() => new AddressTable({ ...DEFAULT_ADDRESS_LIMITS, newConnectionsPerSecondPerAddress: 1.5 })).toThrow(RangeError);
  });
});

describe('exemptList', () => {
  it('matches addresses and blocks, IPv4 and IPv6', () => {
    const list = exemptList(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32']);
    expect(list.check('10.1.2.3', 'ipv4')).toBe(true);
    expect(list.check('192.0.2.7', 'ipv4')).toBe(true);
    expect(list.check('192.0.2.8', 'ipv4')).toBe(false);
    expect(list.check('2001:db8:1::5', 'ipv6')).toBe(true);
    expect(list.check('2001:db9::5', 'ipv6')).toBe(false);
  });
});
