/**
 * The cloud's users and their hubs. Passwords are kept as scrypt hashes with a random salt and
 * compared in constant time; an unknown e-mail costs the same scrypt as a wrong password, so the
 * login page does not reveal which accounts exist.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { HubIdentityKey, HubPlatform, HubRecord, UserRecord } from '../../common/wire';

// Type aliases, not interfaces: they must fit the loose (index-signature) wire records.
export type HubAddresses = {
  localUrl: string | null;
  localUrlSecure: string | null;
  remoteUrl: string | null;
};

export type HubSeed = HubAddresses & {
  _id: string;
  name: string;
  platform: HubPlatform;
  /** The public half of the hub's identity key, published in its record so clients can verify its ping. */
  identityKey?: HubIdentityKey;
};

export type UserSeed = {
  _id: string;
  email: string;
  password: string;
  firstname: string;
  lastname: string;
  hubs: HubSeed[];
};

interface StoredUser {
  record: UserRecord;
  passwordHash: PasswordHash;
}

interface PasswordHash {
  salt: Buffer;
  hash: Buffer;
}

const KEY_LENGTH = 32;

/** scrypt's cost parameter N: Node's default, about 50 ms and 16 MiB per hash on a laptop. */
export const DEFAULT_SCRYPT_COST = 16_384;

/** Every reference hub speaks version 3 of the hub API, the one the official client's HomeyAPIV3 classes are made for. */
const HUB_API_VERSION = 3;

function derive(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { cost }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

async function hashPassword(password: string, cost: number): Promise<PasswordHash> {
  const salt = randomBytes(16);
  return { salt, hash: await derive(password, salt, cost) };
}

export class UserDirectory {
  private constructor(
    private readonly byId: Map<string, StoredUser>,
    private readonly decoy: PasswordHash,
    private readonly cost: number,
  ) {}

  /** `scryptCost`: DEFAULT_SCRYPT_COST unless given (a power of two); tests of what surrounds the check lower it. */
  static async create(seeds: readonly UserSeed[], scryptCost = DEFAULT_SCRYPT_COST): Promise<UserDirectory> {
    const byId = new Map<string, StoredUser>();
    for (const { password, ...record } of seeds) {
      const hubs = record.hubs.map((hub) => ({ ...hub, apiVersion: HUB_API_VERSION }));
      byId.set(record._id, {
        record: structuredClone({ ...record, email: record.email.toLowerCase(), hubs }),
        passwordHash: await hashPassword(password, scryptCost),
      });
    }
    return new UserDirectory(byId, await hashPassword(randomBytes(16).toString('hex'), scryptCost), scryptCost);
  }

  /** The user's id when the e-mail and password match, otherwise null. */
  async verify(email: string, password: string): Promise<string | null> {
    const wanted = email.trim().toLowerCase();
    const user = [...this.byId.values()].find((u) => u.record.email === wanted);
    const stored = user?.passwordHash ?? this.decoy;
    const presented = await derive(password, stored.salt, this.cost);
    return timingSafeEqual(presented, stored.hash) && user ? user.record._id : null;
  }

  /** A copy of the user record (docs/interface.md §2.2), or undefined. */
  record(userId: string): UserRecord | undefined {
    const user = this.byId.get(userId);
    return user ? structuredClone(user.record) : undefined;
  }

  /**
   * The user record as `GET /user/me` answers it: the interface's fields, plus the lists the official
   * client (homey-api) reads — the hubs again as `homeys`, and `devices` (the account's devices
   * that are not hubs: none in the reference cloud). Its User class fails without either list.
   */
  publicRecord(userId: string): (UserRecord & { homeys: UserRecord['hubs']; devices: [] }) | undefined {
    const record = this.record(userId);
    return record && { ...record, homeys: structuredClone(record.hubs), devices: [] };
  }

  ownsHub(userId: string, hubId: string): boolean {
    return this.byId.get(userId)?.record.hubs.some((hub) => hub._id === hubId) ?? false;
  }

  hubIds(userId: string): string[] {
    return this.byId.get(userId)?.record.hubs.map((hub) => hub._id) ?? [];
  }

  /** Hubs move (docs/interface.md §2.2): their addresses change and the user record shows the new ones. */
  setHubAddresses(hubId: string, addresses: HubAddresses): void {
    let found = false;
    for (const user of this.byId.values()) {
      for (const hub of user.record.hubs as HubRecord[]) {
        if (hub._id !== hubId) continue;
        Object.assign(hub, { localUrl: addresses.localUrl, localUrlSecure: addresses.localUrlSecure, remoteUrl: addresses.remoteUrl });
        found = true;
      }
    }
    if (!found) throw new Error(`unknown hub: ${hubId}`);
  }
}
