/** The app core's backend configuration for a reference stack started by a test (its demo client, native redirect). */
import type { BackendConfig } from '../../main/core/ports';
import type { StackInfo } from '../../services/stack';

export function stackBackend(info: StackInfo): BackendConfig {
  return { authUrl: info.auth_url, clientId: info.client.id, clientSecret: info.client.secret, redirectUri: info.client.redirect_uri, embedded: false, webhookUrl: null };
}
