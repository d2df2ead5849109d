/**
 * One reference service in its own process for the slow-sockets bench (slow-sockets.ts): SERVICE=cloud,
 * hub, hub-https, portal or forwarder, with the services' default limits, or with LIMITS=lifted the
 * per-address ones out of the way (the global cap of 1,000 and the timeouts as deployed: the code before
 * per-address limits). Prints `{"url", "victim", "post", "ca"}`: the base URL, a request it answers without
 * credentials (slow-sockets.ts VictimRequest), and the POST whose body it reads.
 */
import { startCloud } from '../../services/cloud/cloud';
import { UserDirectory } from '../../services/cloud/users';
import { startForwarder } from '../../services/forwarder/forwarder';
import { createWebhookStore } from '../../services/forwarder/webhook-store';
import { createDemoHome } from '../../services/hub/demo-home';
import { startHub } from '../../services/hub/hub';
import { createStackCertificates } from '../../services/shared/stack-ca';
import { startToolsPortal } from '../../services/tools/tools-portal';
import { ONE_ADDRESS_FLOOD_LIMITS } from '../support/flood';
import { SLOW_WEBHOOK, slowWebhookStore, victimGet, type VictimRequest } from '../support/slow-sockets';

const USER = { _id: 'u1', email: 'ada@example.test', password: 'correct horse battery', firstname: 'Ada', lastname: 'Lovelace', hubs: [] };
const lifted = process.env.LIMITS === 'lifted' ? ONE_ADDRESS_FLOOD_LIMITS : {};
const service = process.env.SERVICE ?? 'cloud';

async function start(): Promise<{ url: string; victim: VictimRequest; post: { path: string; contentType: string }; ca?: string }> {
  const form = 'application/x-www-form-urlencoded';
  if (service === 'cloud')
    return {
      url: (await startCloud({ clients: [], users: [USER], connectionLimits: lifted })).url,
      victim: victimGet('/.well-known/jwks.json'),
      post: { path: '/oauth2/token', contentType: form },
    };
  if (service === 'portal') {
    const portal = await startToolsPortal({ store: createWebhookStore(), users: await UserDirectory.create([USER]), connectionLimits: lifted });
    return { url: portal.url, victim: victimGet('/webhooks'), post: { path: '/sign-in', contentType: form } };
  }
  if (service === 'forwarder') {
    const forwarder = await startForwarder({ store: await slowWebhookStore(), addressLimits: lifted });
    // Its public port has no GET (health and metrics are on the admin listener): an empty intake, answered 202.
    const intake = `/webhook/${SLOW_WEBHOOK.id}`;
    return { url: forwarder.url, victim: { path: intake, method: 'POST', status: 202 }, post: { path: intake, contentType: 'application/json' } };
  }
  const cloud = await startCloud({ clients: [], users: [USER] });
  const certificates = await createStackCertificates(['127.0.0.1'], ['h1']);
  const hub = await startHub({
    id: 'h1',
    name: 'Home',
    cloudIssuer: cloud.issuer,
    cloudPublicJwk: cloud.publicJwk,
    home: createDemoHome('home'),
    tls: certificates.server,
    connectionLimits: lifted,
  });
  const secure = service === 'hub-https';
  return {
    url: secure ? hub.secureUrl! : hub.url,
    victim: victimGet('/api/manager/system/ping?id=h1'),
    post: { path: '/api/manager/users/login', contentType: 'application/json' },
    ca: secure ? certificates.ca : undefined,
  };
}

process.stdout.write(`${JSON.stringify(await start())}\n`);
process.once('SIGTERM', () => process.exit(0));
