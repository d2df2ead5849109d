/**
 * A cloud and one hub (the demo home, plain HTTP and HTTPS with a CA made for this run) in a process of
 * their own, for the liveness test and bench (test/integration/core/heartbeat.test.ts,
 * test/bench/heartbeat.ts): they stop that process (SIGSTOP) to make the hub silent while the relay in
 * front of it, in the test's own process, stays up. Opens one session and prints one line
 * `hub {"url", "secureUrl", "ca", "token"}`; SIGTERM stops it.
 */
import { startCloud } from '../../services/cloud/cloud';
import { createDemoHome } from '../../services/hub/demo-home';
import { startHub } from '../../services/hub/hub';
import { createStackCertificates } from '../../services/shared/stack-ca';
import { delegationToken, signIn } from '../integration/services/oauth-helpers';

const USER = { email: 'liveness@example.test', password: 'liveness-test-1' };
const CLIENT = { id: 'liveness', secret: 'liveness-secret', redirectUri: 'io.example.liveness:/cb' };

const cloud = await startCloud({
  clients: [{ ...CLIENT, name: 'liveness', native: true, redirectUris: [CLIENT.redirectUri], scopes: ['devices.readonly'] }],
  users: [
    {
      _id: 'u1',
      ...USER,
      firstname: 'Live',
      lastname: 'Ness',
      hubs: [{ _id: 'h1', name: 'Home', platform: 'local', localUrl: null, localUrlSecure: null, remoteUrl: null }],
    },
  ],
});
const certificates = await createStackCertificates(['127.0.0.1']);
const hub = await startHub({
  id: 'h1',
  name: 'Home',
  cloudIssuer: cloud.issuer,
  cloudPublicJwk: cloud.publicJwk,
  home: createDemoHome('home'),
  tls: certificates.server,
});
const { access_token } = await signIn(cloud.url, CLIENT, USER);
const login = await fetch(`${hub.url}/api/manager/users/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ token: await delegationToken(cloud.url, access_token, 'h1') }),
});
const token = (await login.json()) as string;
process.stdout.write(`hub ${JSON.stringify({ url: hub.url, secureUrl: hub.secureUrl, ca: certificates.ca, token })}\n`);
process.once('SIGTERM', () => void Promise.all([hub.close(), cloud.close()]).then(() => process.exit(0)));
