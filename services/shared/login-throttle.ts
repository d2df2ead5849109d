/**
 * Slows password guessing on the services' sign-in forms (the cloud's consent page, the tools portal).
 * Failures are counted per account (the e-mail as typed, normalised) and per client network; after a
 * few free failures each further one doubles the wait before the next attempt, up to a cap. While a
 * wait runs the form answers 429 without checking the password, so a guess made then costs the
 * attacker a request and tells them nothing. An unknown e-mail is counted exactly like a known one
 * (no user enumeration). docs/security.md has the numbers.
 */
import { createHash } from 'node:crypto';

export interface BackoffPolicy {
  /** Failures that cost no wait. */
  freeFailures: number;
  /** The wait after the first failure beyond the free ones; every further failure doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** An entry without a failure for this long is forgotten (the count starts again). */
  forgetAfterMs: number;
  /** Entries kept at most: when full, the one whose last failure is oldest is dropped. */
  maxEntries: number;
}

const MINUTE_MS = 60_000;

/** 5 free failures, then 1 s, 2 s, 4 s … up to 15 min (from the 16th failure on); forgotten after a quiet day. */
export const ACCOUNT_BACKOFF: BackoffPolicy = {
  freeFailures: 5,
  firstDelayMs: 1_000,
  maxDelayMs: 15 * MINUTE_MS,
  forgetAfterMs: 24 * 60 * MINUTE_MS,
  maxEntries: 10_000,
};
/** The same per network, with more free failures: a household or office shares one address. */
export const ADDRESS_BACKOFF: BackoffPolicy = { ...ACCOUNT_BACKOFF, freeFailures: 20 };

interface Entry {
  failures: number;
  lastFailureAt: number;
}

/** One table of failure counts (keys are hashed: an entry's size does not depend on what was typed). */
export class BackoffTable {
  // Kept in order of last failure (an updated entry is re-inserted), so the oldest come first.
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly policy: BackoffPolicy) {}

  get size(): number {
    return this.entries.size;
  }

  /** Milliseconds until `key` may try again; 0 when it may now. */
  waitMs(key: string, now: number): number {
    const entry = this.live(hashKey(key), now);
    if (!entry || entry.failures <= this.policy.freeFailures) return 0;
    const delay = Math.min(this.policy.firstDelayMs * 2 ** (entry.failures - this.policy.freeFailures - 1), this.policy.maxDelayMs);
    return Math.max(0, entry.lastFailureAt + delay - now);
  }

  fail(key: string, now: number): void {
    const hash = hashKey(key);
    const failures = (this.live(hash, now)?.failures ?? 0) + 1;
    this.entries.delete(hash);
    this.forgetOld(now);
    // One entry is added at a time, so dropping the oldest one keeps the table at its bound.
    if (this.entries.size >= this.policy.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(hash, { failures, lastFailureAt: now });
  }

  /** Takes back one failure (an attempt counted in advance that turned out right). */
  forgiveOne(key: string): void {
    const hash = hashKey(key);
    const entry = this.entries.get(hash);
    if (entry && --entry.failures <= 0) this.entries.delete(hash);
  }

  reset(key: string): void {
    this.entries.delete(hashKey(key));
  }

  private live(hash: string, now: number): Entry | undefined {
    const entry = this.entries.get(hash);
    return entry && now - entry.lastFailureAt < this.policy.forgetAfterMs ? entry : undefined;
  }

  /** Drops forgotten entries; they are at the front, so this stops at the first live one. */
  private forgetOld(now: number): void {
    for (const [hash, entry] of this.entries) {
      if (now - entry.lastFailureAt < this.policy.forgetAfterMs) return;
      this.entries.delete(hash);
    }
  }
}

export type SignInVerdict = { allowed: true; succeeded(): void } | { allowed: false; retryAfterSec: number; reason: 'account' | 'network' };

export class LoginThrottle {
  private readonly accounts: BackoffTable;
  private readonly networks: BackoffTable;

  constructor(
    private readonly now: () => number,
    policies: { account: BackoffPolicy; network: BackoffPolicy } = { account: ACCOUNT_BACKOFF, network: ADDRESS_BACKOFF },
  ) {
    this.accounts = new BackoffTable(policies.account);
    this.networks = new BackoffTable(policies.network);
  }

  /**
   * Call before checking a password. An allowed attempt is counted as failed at once, so guesses sent
   * in parallel cannot all pass this check while the password hashes are computed; `succeeded()`
   * takes that back (and ends the account's backoff; the network's count only loses this attempt, so
   * signing in to one's own account does not unlock guessing at others).
   */
  begin(email: string, clientAddress: string): SignInVerdict {
    const now = this.now();
    const account = accountKey(email);
    const network = networkOf(clientAddress);
    const accountWait = this.accounts.waitMs(account, now);
    const networkWait = this.networks.waitMs(network, now);
    if (accountWait > 0 || networkWait > 0) {
      return {
        allowed: false,
        retryAfterSec: Math.ceil(Math.max(accountWait, networkWait) / 1000),
        reason: accountWait >= networkWait ? 'account' : 'network',
      };
    }
    this.accounts.fail(account, now);
    this.networks.fail(network, now);
    return {
      allowed: true,
      succeeded: () => {
        this.accounts.reset(account);
        this.networks.forgiveOne(network);
      },
    };
  }
}

/** What the sign-in page tells a user who must wait. */
export function throttledMessage(verdict: { retryAfterSec: number; reason: 'account' | 'network' }): string {
  const who = verdict.reason === 'account' ? 'for this account' : 'from your network';
  const seconds = verdict.retryAfterSec;
  const wait = seconds < 120 ? `${seconds} ${seconds === 1 ? 'second' : 'seconds'}` : `${Math.ceil(seconds / 60)} minutes`;
  return `Too many failed sign-ins ${who}. Try again in ${wait}.`;
}

/** The account as the user directory finds it (trimmed, lower case), so spellings of one address share a count. */
function accountKey(email: string): string {
  return `account:${email.trim().normalize('NFC').toLowerCase()}`;
}

/**
 * The client's network: an IPv4 address itself, an IPv6 address its /64 (one host usually holds a
 * whole /64, so counting single IPv6 addresses would count nothing).
 */
export function networkOf(address: string): string {
  const ip = address.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return `network:${mapped[1]}`;
  if (!ip.includes(':')) return `network:${ip}`;
  const [head = '', tail] = ip.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
  return `network:${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}
