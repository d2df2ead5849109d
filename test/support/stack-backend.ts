/**
 * The app core's backend configuration for a reference stack started by a test (its demo client, or
 * the read-only one, with the native redirect).
 */
import type { BackendConfig } from '../../main/core/shared/ports';
import type { StackInfo } from '../../services/stack';

export function stackBackend(info: StackInfo, client: 'full' | 'readonly' = 'full'): BackendConfig {
  const { id, secret } = client === 'readonly' ? info.readonly_client : info.client;
  return { authUrl: info.auth_url, clientId: id, clientSecret: secret, redirectUri: info.client.redirect_uri, embedded: false, webhookUrl: null };
}
