/**
 * The hub of the official-realtime bench (docs/benchmarks.md, "The official client's realtime") in a
 * process of its own, so the two clients and the change maker do not share its event loop: a cloud and
 * a hub whose home has `DEVICES` generated devices, and three sessions with the `devices` scope (the
 * change maker's, the official client's, the hub realtime client's). Prints one JSON line
 * `{"url", "sessions"}`; SIGTERM stops it.
 */
import { startCloud } from '../../services/cloud/cloud';
import { createDemoHome } from '../../services/hub/demo-home';
import { startHub } from '../../services/hub/hub';
import { delegationToken, signIn } from '../integration/services/oauth-helpers';

const USER = { email: 'bench@example.test', password: 'official-bench-1' };
const CLIENT = { id: 'bench', secret: 'bench-secret', redirectUri: 'io.example.bench:/cb' };

const cloud = await startCloud({
  clients: [{ ...CLIENT, name: 'bench', native: true, redirectUris: [CLIENT.redirectUri], scopes: ['devices'] }],
  users: [
    {
      _id: 'u1',
      ...USER,
      firstname: 'Bench',
      lastname: 'Mark',
      hubs: [{ _id: 'h1', name: 'Home', platform: 'local', localUrl: null, localUrlSecure: null, remoteUrl: null }],
    },
  ],
});
const hub = await startHub({
  id: 'h1',
  name: 'Home',
  cloudIssuer: cloud.issuer,
  cloudPublicJwk: cloud.publicJwk,
  home: createDemoHome('home', { devices: Number(process.env.DEVICES ?? 300) }),
});
const openSession = async () => {
  const { access_token } = await signIn(cloud.url, CLIENT, USER);
  const login = await fetch(`${hub.url}/api/manager/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: await delegationToken(cloud.url, access_token, 'h1') }),
  });
  return (await login.json()) as string;
};
const sessions = [await openSession(), await openSession(), await openSession()];
process.stdout.write(`${JSON.stringify({ url: hub.url, sessions })}\n`);
process.once('SIGTERM', () => void Promise.all([hub.close(), cloud.close()]).then(() => process.exit(0)));
