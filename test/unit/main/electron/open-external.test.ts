import { beforeEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../../../support/core-fakes';
import { resetFakeElectron, shell } from '../../../support/fake-electron';
import { createOpenExternal } from '../../../../main/electron/open-external';

vi.mock('electron', () => import('../../../support/fake-electron'));

describe('createOpenExternal', () => {
  beforeEach(() => resetFakeElectron());

  it('opens URLs on the authorisation origin in the system browser', async () => {
    const open = createOpenExternal('https://cloud.example', recordingLogger());
    await open('https://cloud.example/oauth2/authorise?client_id=hubdesk&state=s');
    expect(shell.openExternal).toHaveBeenCalledWith('https://cloud.example/oauth2/authorise?client_id=hubdesk&state=s');
  });

  it('allows a plain-http authorisation origin on loopback (the embedded demo cloud)', async () => {
    const open = createOpenExternal('http://127.0.0.1:4010', recordingLogger());
    await open('http://127.0.0.1:4010/oauth2/authorise');
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['another host', 'https://evil.example/oauth2/authorise'],
    ['a look-alike host', 'https://cloud.example.evil.test/'],
    ['another port', 'https://cloud.example:8443/'],
    ['plain http', 'http://cloud.example/oauth2/authorise'],
    ['credentials', 'https://user:pw@cloud.example/'],
    ['file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
    ['a custom scheme', 'smb://cloud.example/share'],
    ['garbage', 'not a url'],
  ])('refuses %s and logs only the origin', async (_name, url) => {
    const logger = recordingLogger();
    const open = createOpenExternal('https://cloud.example', logger);
    await expect(open(url)).rejects.toThrow(/only the sign-in page of its cloud and the developer portal/);
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(logger.lines).toHaveLength(1);
    expect(JSON.stringify(logger.lines)).not.toMatch(/passwd|authorise|pw@/);
  });

  it('opens the developer portal when its origin is allowed too, and still nothing else', async () => {
    const open = createOpenExternal(['https://cloud.example', 'http://127.0.0.1:4020'], recordingLogger());
    await open('http://127.0.0.1:4020/webhooks');
    expect(shell.openExternal).toHaveBeenCalledWith('http://127.0.0.1:4020/webhooks');
    await expect(open('http://127.0.0.1:4021/webhooks')).rejects.toThrow();
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it.each(['http://cloud.example', 'https://cloud.example/path', 'file:///x', 'nonsense'])('refuses to be configured with %s', (origin) => {
    expect(() => createOpenExternal(origin, recordingLogger())).toThrow();
  });
});
