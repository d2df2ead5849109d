import { describe, expect, it } from 'vitest';
import { BackendConfigError, readConfiguredBackend, readWebhookUrl } from '../../../main/backend';

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
