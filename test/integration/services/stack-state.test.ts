/**
 * The stack with a state directory (docs/services.md, "Keeping state across a restart"): started again
 * on the same directory it is the same cloud and the same hubs, at the same addresses, with the same
 * keys and CA, and a sign-in made before goes on working (the access token, a delegation token, a hub
 * session, a refresh). A file it cannot use stops the start with the file's name and what is wrong,
 * in-process and as a program (exit code 1, no stack trace).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newPingNonce, PingProofSchema, verifyPing } from '../../../common/hub-identity';
import { UserRecordSchema } from '../../../common/wire';
import { startStack } from '../../../services/stack';
import { STACK_STATE_FILE, StackStateError } from '../../../services/stack-state';
import { startServiceProgram } from '../../support/service-program';
import { tempDir } from '../../support/temp-dir';
import { delegationToken, postToken, signIn } from './oauth-helpers';

const userRecord = async (authUrl: string, accessToken: string) =>
  UserRecordSchema.parse(await (await fetch(`${authUrl}/user/me`, { headers: { authorization: `Bearer ${accessToken}` } })).json());
const jwks = async (authUrl: string) => (await fetch(`${authUrl}/.well-known/jwks.json`)).json();

describe('a stack started again on its state directory', () => {
  it('is the same cloud and hubs at the same addresses, and a sign-in made before still works', async () => {
    const stateDir = tempDir('stack-state');
    const first = await startStack({ remoteLatencyMs: 0, stateDir });
    const before = first.info;
    const client = { id: before.client.id, secret: before.client.secret, redirectUri: before.client.redirect_uri };
    let tokens: Awaited<ReturnType<typeof signIn>>;
    let keysBefore: unknown;
    let recordBefore: Awaited<ReturnType<typeof userRecord>>;
    try {
      tokens = await signIn(before.auth_url, client, before.user);
      keysBefore = await jwks(before.auth_url);
      recordBefore = await userRecord(before.auth_url, tokens.access_token);
    } finally {
      await first.close();
    }

    const second = await startStack({ remoteLatencyMs: 0, stateDir });
    try {
      const after = second.info;
      expect({ auth_url: after.auth_url, hubs: after.hubs, webhook_url: after.webhook_url, tools_url: after.tools_url, ca: after.ca }).toEqual({
        auth_url: before.auth_url,
        hubs: before.hubs,
        webhook_url: before.webhook_url,
        tools_url: before.tools_url,
        ca: before.ca,
      });
      expect(await jwks(after.auth_url)).toEqual(keysBefore);

      // The access token from before the restart: the user record (hubs with their identity keys, as before), a delegation token, a session on the hub.
      const record = await userRecord(after.auth_url, tokens.access_token);
      expect(record.hubs).toEqual(recordBefore.hubs);
      const home = after.hubs.find((hub) => hub.name === 'Home')!;
      const login = await fetch(`${home.localUrl!}/api/manager/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: await delegationToken(after.auth_url, tokens.access_token, home.id) }),
      });
      expect(login.status).toBe(200);

      // The hub proves itself with the identity key the user record published before the restart.
      const nonce = newPingNonce();
      const proof = PingProofSchema.parse(await (await fetch(`${home.localUrl!}/api/manager/system/ping?id=${home.id}&nonce=${nonce}`)).json());
      const homeKey = recordBefore.hubs.find((hub) => hub._id === home.id)!.identityKey!;
      expect(verifyPing(homeKey, home.id, nonce, proof)).toBe(true);

      // The refresh token rotates, and the new one is kept too: a third start knows it.
      const refreshed = await postToken(after.auth_url, client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(refreshed.status).toBe(200);
      tokens = (await refreshed.json()) as typeof tokens;
    } finally {
      await second.close();
    }

    const third = await startStack({ remoteLatencyMs: 0, stateDir });
    try {
      const refreshed = await postToken(third.info.auth_url, client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(refreshed.status).toBe(200);
    } finally {
      await third.close();
    }
  });

  it('that was written for another host is refused, saying so', async () => {
    const stateDir = tempDir('stack-state');
    await (await startStack({ remoteLatencyMs: 0, stateDir })).close();
    await expect(startStack({ remoteLatencyMs: 0, stateDir, host: 'localhost' })).rejects.toThrow(
      `${join(stateDir, STACK_STATE_FILE)} is a stack's on 127.0.0.1, not on localhost`,
    );
  });

  it('with a corrupt file does not start: the error names the file, in-process and as a program (exit code 1, no stack trace)', async () => {
    const stateDir = tempDir('stack-state');
    writeFileSync(join(stateDir, STACK_STATE_FILE), '{"version": 1, "ho');
    await expect(startStack({ remoteLatencyMs: 0, stateDir })).rejects.toThrow(StackStateError);

    const program = startServiceProgram('stack', ['--state-dir', stateDir]);
    expect(await program.exited).toBe(1);
    const { stdout, stderr } = program.output();
    expect(stdout).toBe('');
    expect(stderr).toContain('stack: failed to start');
    expect(stderr).toContain(`${join(stateDir, STACK_STATE_FILE)} is not JSON`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('as a program, a bad option is answered with the usage and exit code 2', async () => {
    const program = startServiceProgram('stack', ['--state-dir']);
    expect(await program.exited).toBe(2);
    expect(program.output().stderr).toContain('usage: npm run stack -- [--state-dir <dir>]');
  });
});
