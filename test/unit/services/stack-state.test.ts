import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../../services/cloud/delegation-signer';
import type { GrantSnapshot } from '../../../services/cloud/grants';
import { createStackCertificates } from '../../../services/shared/stack-ca';
import { GRANTS_STATE_FILE, type KeptStack, MAX_STATE_FILE_BYTES, openStackState, STACK_STATE_FILE, StackStateError } from '../../../services/stack-state';
import { parseStackArgs } from '../../../services/stack-cli';
import { tempDir } from '../../support/temp-dir';

const HASH = 'A'.repeat(43);

async function keptStack(): Promise<KeptStack> {
  return {
    version: 1,
    host: '127.0.0.1',
    ports: {
      cloud: 4100,
      forwarder: 4101,
      portal: 4102,
      hubs: { 'hub-1': { http: 4103, https: 4104, relay: 4105 }, 'hub-2': { http: 4106, https: null, relay: 4107 } },
    },
    cloudSigningKey: await generateSigningKey(),
    hubIdentityKeys: { 'hub-1': '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIGn8\n-----END PRIVATE KEY-----\n' },
    certificates: await createStackCertificates(['127.0.0.1']),
  };
}

const grants: GrantSnapshot = {
  grants: [{ grantId: 'g1', clientId: 'hubdesk-desktop', userId: 'u1', scopes: ['devices', 'devices.readonly'], lastUsedAt: 1_000 }],
  accessTokens: [{ hash: HASH, grantId: 'g1', expiresAt: 2_000 }],
  refreshTokens: [{ hash: HASH.replace('A', 'B'), grantId: 'g1', current: true }],
};

describe('the stack state directory', () => {
  it('is made when absent and holds nothing yet', () => {
    const dir = join(tempDir('stack-state'), 'new', 'dir');
    const state = openStackState(dir);
    expect(state.stack).toBeUndefined();
    expect(state.grants).toBeUndefined();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('reads back what it wrote, in 0600 files, with no temporary file left', async () => {
    const dir = tempDir('stack-state');
    const kept = await keptStack();
    const first = openStackState(dir);
    first.saveStack(kept);
    first.saveGrants(grants);
    const again = openStackState(dir);
    expect(again.stack).toEqual(kept);
    expect(again.grants).toEqual(grants);
    expect(readdirSync(dir).sort()).toEqual([GRANTS_STATE_FILE, STACK_STATE_FILE]);
    for (const file of readdirSync(dir)) expect(statSync(join(dir, file)).mode & 0o777, file).toBe(0o600);
  });

  it('refuses a file that is not JSON, naming it', () => {
    const dir = tempDir('stack-state');
    writeFileSync(join(dir, STACK_STATE_FILE), '{"version": 1, "host": "127.0');
    expect(() => openStackState(dir)).toThrow(StackStateError);
    expect(() => openStackState(dir)).toThrow(`${join(dir, STACK_STATE_FILE)} is not JSON`);
  });

  it('refuses a file that is not what it writes, saying where', async () => {
    const dir = tempDir('stack-state');
    const kept = await keptStack();
    writeFileSync(join(dir, STACK_STATE_FILE), JSON.stringify({ ...kept, ports: { ...kept.ports, cloud: 70_000 } }));
    expect(() => openStackState(dir)).toThrow(/stack\.json is not a state file this stack wrote: ports\.cloud: .*Fix or remove it/);
    writeFileSync(join(dir, STACK_STATE_FILE), JSON.stringify({ ...kept, certificates: { ...kept.certificates, ca: 'not a PEM' } }));
    expect(() => openStackState(dir)).toThrow(/certificates\.ca/);
    writeFileSync(join(dir, STACK_STATE_FILE), JSON.stringify(kept));
    writeFileSync(join(dir, GRANTS_STATE_FILE), JSON.stringify({ ...grants, accessTokens: [{ hash: 'short', grantId: 'g1', expiresAt: 1 }] }));
    expect(() => openStackState(dir)).toThrow(/grants\.json is not a state file this stack wrote: accessTokens\.0\.hash/);
    writeFileSync(join(dir, GRANTS_STATE_FILE), JSON.stringify({ ...grants, grants: [{ ...grants.grants[0], scopes: ['everything'] }] }));
    expect(() => openStackState(dir)).toThrow(/grants\.0\.scopes\.0/);
  });

  it('refuses a file larger than any it writes, unread', () => {
    const dir = tempDir('stack-state');
    writeFileSync(join(dir, GRANTS_STATE_FILE), Buffer.alloc(MAX_STATE_FILE_BYTES + 1, 0x20));
    expect(() => openStackState(dir)).toThrow(`is ${MAX_STATE_FILE_BYTES + 1} bytes, more than the ${MAX_STATE_FILE_BYTES} a state file may have`);
  });
});

describe('npm run stack: its options', () => {
  it('takes --state-dir, or HUBDESK_STACK_STATE_DIR when it is not given, and nothing else', () => {
    expect(parseStackArgs([], {})).toEqual({ ok: true, options: { stateDir: undefined } });
    expect(parseStackArgs([], { HUBDESK_STACK_STATE_DIR: '' })).toEqual({ ok: true, options: { stateDir: undefined } });
    expect(parseStackArgs([], { HUBDESK_STACK_STATE_DIR: '/var/lib/stack' })).toEqual({ ok: true, options: { stateDir: '/var/lib/stack' } });
    expect(parseStackArgs(['--state-dir', '/tmp/s'], { HUBDESK_STACK_STATE_DIR: '/var/lib/stack' })).toEqual({ ok: true, options: { stateDir: '/tmp/s' } });
    expect(parseStackArgs(['--state-dir=/tmp/s'], {})).toEqual({ ok: true, options: { stateDir: '/tmp/s' } });
    expect(parseStackArgs(['--state-dir', ' '], {})).toEqual({ ok: false, error: '--state-dir must not be empty' });
    expect(parseStackArgs(['--port', '1'], {})).toMatchObject({ ok: false, error: expect.stringContaining("'--port'") });
    expect(parseStackArgs(['somewhere'], {})).toMatchObject({ ok: false });
  });
});
