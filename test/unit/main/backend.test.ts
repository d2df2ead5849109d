import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackendConfigError, readConfiguredBackend, readExtraCa, readPortalUrl, readWebhookUrl } from '../../../main/backend';
import { tempDir } from '../../support/temp-dir';

const cloud = { HUBDESK_AUTH_URL: 'https://cloud.example', HUBDESK_CLIENT_ID: 'id', HUBDESK_CLIENT_SECRET: 'secret' };

describe('HUBDESK_WEBHOOK_URL', () => {
  it('is optional: unset means no forwarder', () => {
    expect(readWebhookUrl({})).toBeNull();
    expect(readConfiguredBackend(cloud, 'io.hubdesk.app:/oauth/callback')?.webhookUrl).toBeNull();
  });
  it('accepts https anywhere and http on loopback, without a trailing slash', () => {
    expect(readWebhookUrl({ HUBDESK_WEBHOOK_URL: 'https://hooks.example/base/' })).toBe('https://hooks.example/base');
    expect(readWebhookUrl({ HUBDESK_WEBHOOK_URL: 'http://127.0.0.1:5000' })).toBe('http://127.0.0.1:5000');
    expect(readConfiguredBackend({ ...cloud, HUBDESK_WEBHOOK_URL: 'https://hooks.example' }, 'x:/y')?.webhookUrl).toBe('https://hooks.example');
  });
  it.each(['http://hooks.example', 'not a url', 'https://user:pw@hooks.example', 'https://hooks.example/?q=1'])('refuses %s', (value) => {
    expect(() => readWebhookUrl({ HUBDESK_WEBHOOK_URL: value })).toThrow(BackendConfigError);
    expect(() => readWebhookUrl({ HUBDESK_WEBHOOK_URL: value })).toThrow(/HUBDESK_WEBHOOK_URL/);
  });
});

describe('HUBDESK_PORTAL_URL', () => {
  it('is optional, and an https (or loopback http) URL with a path when set', () => {
    expect(readPortalUrl({})).toBeNull();
    expect(readPortalUrl({ HUBDESK_PORTAL_URL: 'https://developer.example/webhooks/' })).toBe('https://developer.example/webhooks');
    expect(
      readConfiguredBackend(
        { HUBDESK_AUTH_URL: 'https://cloud.example', HUBDESK_CLIENT_ID: 'c', HUBDESK_CLIENT_SECRET: 's', HUBDESK_PORTAL_URL: 'https://developer.example' },
        'x:/cb',
      )?.portalUrl,
    ).toBe('https://developer.example');
  });

  it.each(['http://developer.example', 'javascript:alert(1)', 'https://u:p@developer.example', 'not a url'])('refuses %s, naming the variable', (value) => {
    expect(() => readPortalUrl({ HUBDESK_PORTAL_URL: value })).toThrow(/HUBDESK_PORTAL_URL/);
  });
});

describe('HUBDESK_EXTRA_CA_FILE', () => {
  const dir = tempDir('ca');
  const pem = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pem);
  const notPem = join(dir, 'not.pem');
  writeFileSync(notPem, 'hello');

  it('is optional, and its PEM becomes the trusted CA of a configured cloud', () => {
    expect(readExtraCa({})).toEqual({});
    expect(readConfiguredBackend(cloud, 'x:/y')?.trustedCaPem).toBeUndefined();
    expect(readConfiguredBackend({ ...cloud, HUBDESK_EXTRA_CA_FILE: caFile }, 'x:/y')?.trustedCaPem).toBe(pem);
  });
  it('refuses a missing file or one without a certificate, naming the variable', () => {
    expect(() => readExtraCa({ HUBDESK_EXTRA_CA_FILE: join(dir, 'missing.pem') })).toThrow(/HUBDESK_EXTRA_CA_FILE cannot be read \(ENOENT\)/);
    expect(() => readExtraCa({ HUBDESK_EXTRA_CA_FILE: notPem })).toThrow(/HUBDESK_EXTRA_CA_FILE holds no PEM certificate/);
  });
});
