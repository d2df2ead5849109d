/**
 * The reference services together: one cloud with the demo client and user, the user's two hubs
 * ("Home" on the LAN, "Holiday cabin" in the cloud), the webhook forwarder with its legacy-function
 * sandbox, and the developer portal. The app's embedded default and the peer of the integration and
 * end-to-end tests. Everything listens on loopback ports chosen by the OS.
 *
 * The hubs' routes are those of a real home network: "Home" answers on plain HTTP and on HTTPS (a
 * certificate from a CA made at start) on the LAN, and both hubs are reachable remotely through a
 * relay that adds internet-like latency. With `advertise`, "Home" also announces itself over mDNS.
 * With `simulate` the homes live (thermostats drift, sensors trip); `largeHome` and `eventsPerSecond`
 * make "Home" the bench's large, busy home. With `stateDir` it keeps what real services keep across a
 * restart (services/stack-state.ts): started again on the same directory, it is the same cloud and the
 * same hubs at the same addresses, and an app signed in before is still signed in.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../common/logger';
import { type ClientRegistration, type HubAddresses, type RunningCloud, startCloud } from './cloud/cloud';
import { generateSigningKey } from './cloud/delegation-signer';
import { DEMO_USER } from './demo-account';
import type { ForwarderOptions, RunningForwarder } from './forwarder/forwarder';
import type { WebhookStore } from './forwarder/webhook-store';
import { createDemoHome, type DemoHome } from './hub/demo-home';
import { advertiseHub, type HubAdvertisement } from './hub/hub-advertiser';
import { type RunningHub, startHub } from './hub/hub';
import { createLoadGenerator } from './hub/load-generator';
import type { Runner } from './hub/ticker';
import { DEFAULT_RELAY_LATENCY_MS, type RunningRelay, startRelay } from './relay/relay';
import { MemoryReplayGuard } from './shared/delegation-token';
import { silentLogger } from './shared/logger';
import { createStackCertificates, type StackCertificates } from './shared/stack-ca';
import { type HubPorts, type KeptStack, openStackState, STACK_STATE_FILE, StackStateError } from './stack-state';
import { startWebhookServices, type WebhookServices } from './webhook-services';

export { DEMO_WEBHOOK_KEY_PATH } from './webhook-services';
import { LOOPBACK_REDIRECT_URI, OAUTH_REDIRECT_URI } from '../common/oauth-redirect';
import type { HubIdentityKey, HubPlatform } from '../common/wire';

export interface StackOptions {
  host?: string;
  now?: () => number;
  accessTokenTtlSec?: number;
  codeTtlSec?: number;
  delegationTtlSec?: number;
  sessionTtlSec?: number;
  /** Added each way on the hubs' remote route (the relay); default 80 ms. Tests that do not care pass 0. */
  remoteLatencyMs?: number;
  logger?: Logger;
  /**
   * Announce "Home" on the LAN over mDNS (`_hub._tcp`, TXT `id`, `secure`). Off by default so tests
   * do not flood the LAN; `npm run stack` and the embedded default turn it on.
   */
  advertise?: boolean;
  /** Run the living-home simulation on both hubs. Off by default so tests see a still home; `npm run stack` and the embedded default turn it on. */
  simulate?: boolean;
  /** The second hub's name instead of "Holiday cabin" (the test of hostile names). */
  cabinName?: string;
  /** The bench: "Home" gets this many devices in all (its own plus generated ones of mixed classes and zones). */
  largeHome?: { devices: number };
  /** Told of every HTTP request the cloud and the hubs receive, with the service's name ('cloud' or a hub id): tests count calls. */
  requestLog?: (request: { service: string; method: string; path: string }) => void;
  /** The bench: "Home" makes this many capability changes a second in all, spread over its devices. */
  eventsPerSecond?: number;
  /** Passed on to the forwarder: what it keeps for listeners that lag (tests that flood a listener). */
  forwarder?: Pick<ForwarderOptions, 'resumeBufferSize' | 'resumeBufferBytes' | 'resumeBudgetBytes'>;
  /**
   * Keep the ports, keys, certificates and grants in this directory (made when absent) and start from
   * what it holds (docs/services.md, "Keeping state across a restart"). Without it everything is new on every start.
   */
  stateDir?: string;
}

/** What a client needs to use the stack; printed as JSON by stack-cli. */
export interface StackInfo {
  auth_url: string;
  hubs: ({ id: string; name: string } & HubAddresses)[];
  client: { id: string; secret: string; redirect_uri: string; loopback_redirect_uri: string };
  /** A second demo client granted only `devices.readonly` (same redirect URIs), to try a read-only sign-in. */
  readonly_client: { id: string; secret: string };
  /** The confidential demo client for code written against the official client (homey-api): no PKCE, code redeemed by its back end. */
  official_client: { id: string; secret: string; redirect_uri: string };
  user: { email: string; password: string };
  /** The forwarder's base URL ({webhook_url}: intake at /webhook/<id>, listener channel at /listen). */
  webhook_url: string;
  /** The developer portal's base URL ({tools_url}/webhooks). */
  tools_url: string;
  /**
   * The demo webhook (key path `body.device.id`), owned by the demo user: its secret (for listeners) and
   * one tap credential (`<id>.<secret>`, for the owner's tap: every intake with its routing decision).
   */
  webhook: { id: string; name: string; secret: string; tap_credential: string };
  /** The CA (PEM) that issued the certificate of every `localUrlSecure`; made at start, new on every start unless kept in the state directory. */
  ca: string;
}

export interface RunningStack {
  info: StackInfo;
  cloud: RunningCloud;
  forwarder: RunningForwarder;
  /** The forwarder's webhooks: the demo one, one per legacy fixture (random id, named `Legacy: <fixture name>`), and any made in the portal. */
  webhooks: WebhookStore;
  /** The running hubs, in the order of `info.hubs`; an entry is replaced when its hub is relocated. */
  hubs: RunningHub[];
  /** Restarts a hub and its relay on new ports for all its routes (same devices, sessions dropped) and tells the cloud its new addresses. */
  relocateHub(hubId: string): Promise<void>;
  close(): Promise<void>;
}

const REDIRECT_URI = OAUTH_REDIRECT_URI;

/** The desktop app's registration. Its secret is public by nature (RFC 8252 §8.5); PKCE protects the code. */
export const DEMO_CLIENT: ClientRegistration = {
  id: 'hubdesk-desktop',
  secret: 'hubdesk-desktop-demo-secret',
  name: 'Hubdesk',
  native: true,
  redirectUris: [REDIRECT_URI, LOOPBACK_REDIRECT_URI],
  scopes: ['devices.readonly', 'devices', 'flow.readonly', 'flow.start', 'insights.readonly'],
};

/** The same app registered with read-only access, so a sign-in that may only look can be tried. */
export const READONLY_CLIENT: ClientRegistration = {
  ...DEMO_CLIENT,
  id: 'hubdesk-desktop-readonly',
  secret: 'hubdesk-desktop-readonly-demo-secret',
  name: 'Hubdesk (read-only)',
  scopes: ['devices.readonly'],
};

/**
 * A confidential web client, as code written against the official client (homey-api) registers: its
 * secret stays in its back end, which also redeems the code, so PKCE is not required of it (native
 * clients keep it required). Its redirect is on the loopback, where such a back end runs on a
 * developer's machine; any port is accepted there, the path must match.
 */
export const OFFICIAL_CLIENT: ClientRegistration = {
  id: 'homey-api-demo',
  secret: 'homey-api-demo-secret',
  name: 'homey-api demo',
  native: false,
  redirectUris: ['http://127.0.0.1/homey-api/callback'],
  scopes: ['devices.readonly', 'devices', 'flow.readonly', 'flow.start', 'insights.readonly'],
};

export { DEMO_USER };

interface HubSpec {
  id: string;
  name: string;
  platform: HubPlatform;
  home: DemoHome;
  /** The hub's identity key: it signs pings; its public half is in the cloud's hub record. Kept across relocations. */
  identity: { privateKey: KeyObject; publicJwk: HubIdentityKey };
}

/** The identity of a hub from its private key: a new one unless kept. */
function hubIdentity(privateKey: KeyObject = generateKeyPairSync('ed25519').privateKey): HubSpec['identity'] {
  const { kty, crv, x } = createPublicKey(privateKey).export({ format: 'jwk' });
  return { privateKey, publicJwk: { kty: kty as 'OKP', crv: crv as 'Ed25519', x: x! } };
}

function keptHubIdentity(pem: string | undefined, where: string): HubSpec['identity'] {
  if (pem === undefined) return hubIdentity();
  let key: KeyObject | undefined;
  try {
    key = createPrivateKey(pem);
  } catch {
    // refused below
  }
  if (key?.asymmetricKeyType !== 'ed25519') throw new StackStateError(`${where}: a hub's identity key is not an Ed25519 private key. Fix or remove the file.`);
  return hubIdentity(key);
}

/** The kept certificates while they stay valid for a day more; undefined when they are about to expire (new ones are made). */
function keptCertificates(kept: StackCertificates | undefined, where: string): StackCertificates | undefined {
  if (!kept) return undefined;
  let validTo: number;
  try {
    validTo = Math.min(...[kept.ca, kept.server.cert].map((pem) => Date.parse(new X509Certificate(pem).validTo)));
  } catch {
    throw new StackStateError(`${where}: the kept certificates cannot be read. Fix or remove the file.`);
  }
  return validTo - Date.now() > 86_400_000 ? kept : undefined;
}

const portOf = (url: string) => Number(new URL(url).port);

const NO_ADDRESSES: HubAddresses = { localUrl: null, localUrlSecure: null, remoteUrl: null };

/** A LAN hub is reached on the LAN (plain and secure) and remotely; a cloud hub only remotely. */
function addressesFor(spec: HubSpec, hub: RunningHub, relay: RunningRelay): HubAddresses {
  const remote = { ...NO_ADDRESSES, remoteUrl: relay.url };
  return spec.platform === 'local' ? { ...remote, localUrl: hub.url, localUrlSecure: hub.secureUrl } : remote;
}

export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? silentLogger;
  const state = options.stateDir === undefined ? undefined : openStackState(options.stateDir);
  const kept = state?.stack;
  const keptFile = join(options.stateDir ?? '', STACK_STATE_FILE);
  if (kept && kept.host !== host)
    throw new StackStateError(`${keptFile} is a stack's on ${kept.host}, not on ${host}: start it on ${kept.host} again, or use another state directory.`);
  const identityOf = (hubId: string) => keptHubIdentity(kept?.hubIdentityKeys[hubId], keptFile);
  const specs: HubSpec[] = [
    {
      id: 'hub-3f9a6c1e2d7b4a58',
      name: 'Home',
      platform: 'local',
      home: createDemoHome('home', { now: options.now, devices: options.largeHome?.devices }),
      identity: identityOf('hub-3f9a6c1e2d7b4a58'),
    },
    {
      id: 'hub-8b2e5d7a1c4f9e63',
      name: options.cabinName ?? 'Holiday cabin',
      platform: 'cloud',
      home: createDemoHome('cabin', { now: options.now }),
      identity: identityOf('hub-8b2e5d7a1c4f9e63'),
    },
  ];
  const signingKey = kept?.cloudSigningKey ?? (state ? await generateSigningKey() : undefined);
  const load: Runner | undefined = options.eventsPerSecond ? createLoadGenerator(specs[0]!.home, { eventsPerSecond: options.eventsPerSecond }) : undefined;

  const cloud = await startCloud({
    host,
    port: kept?.ports.cloud,
    signingKey,
    grantPersistence: state && { restored: state.grants, onChange: (snapshot) => state.saveGrants(snapshot) },
    clients: [DEMO_CLIENT, READONLY_CLIENT, OFFICIAL_CLIENT],
    users: [
      { ...DEMO_USER, hubs: specs.map(({ id, name, platform, identity }) => ({ _id: id, name, platform, ...NO_ADDRESSES, identityKey: identity.publicJwk })) },
    ],
    accessTokenTtlSec: options.accessTokenTtlSec,
    codeTtlSec: options.codeTtlSec,
    delegationTtlSec: options.delegationTtlSec,
    now: options.now,
    demoHint: { email: DEMO_USER.email, password: DEMO_USER.password },
    logger,
    requestLog: options.requestLog && ((request) => options.requestLog!({ service: 'cloud', ...request })),
  });
  const hubs: RunningHub[] = [];
  const relays: RunningRelay[] = [];
  const advertisements: (HubAdvertisement | undefined)[] = [];
  let webhookServices: WebhookServices | undefined;
  const close = async () => {
    load?.stop();
    await Promise.allSettled([
      ...advertisements.map((advertisement) => advertisement?.close()),
      ...relays.map((relay) => relay.close()),
      ...hubs.map((hub) => hub.close()),
      cloud.close(),
      webhookServices?.close(),
    ]);
  };

  let info: StackInfo;
  let certificates: StackCertificates;
  try {
    const lanHubIds = specs.filter((spec) => spec.platform === 'local').map((spec) => spec.id);
    const usable = keptCertificates(kept?.certificates, keptFile);
    if (kept && !usable) logger.info('stack: the kept certificates expire within a day; made new ones, from a new CA', { stateDir: options.stateDir });
    certificates = usable ?? (await createStackCertificates([host, '127.0.0.1', 'localhost'], lanHubIds));
    // The forwarder knows this cloud, so a listener naming a hub proves it with the cloud's delegation token.
    webhookServices = await startWebhookServices({
      host,
      port: kept?.ports.forwarder,
      portalPort: kept?.ports.portal,
      now: options.now,
      logger,
      forwarder: { ...options.forwarder, hubIds: { verify: { cloudUrl: cloud.issuer } } },
    });
    info = {
      auth_url: cloud.url,
      hubs: [],
      client: { id: DEMO_CLIENT.id, secret: DEMO_CLIENT.secret, redirect_uri: REDIRECT_URI, loopback_redirect_uri: LOOPBACK_REDIRECT_URI },
      readonly_client: { id: READONLY_CLIENT.id, secret: READONLY_CLIENT.secret },
      official_client: { id: OFFICIAL_CLIENT.id, secret: OFFICIAL_CLIENT.secret, redirect_uri: OFFICIAL_CLIENT.redirectUris[0]! },
      user: { email: DEMO_USER.email, password: DEMO_USER.password },
      webhook_url: webhookServices.forwarder.url,
      tools_url: webhookServices.portal.url,
      webhook: {
        id: webhookServices.demoWebhook.id,
        name: webhookServices.demoWebhook.name,
        secret: webhookServices.demoWebhook.secret,
        tap_credential: webhookServices.demoTapCredential,
      },
      ca: certificates.ca,
    };
  } catch (error) {
    await close();
    throw error;
  }
  const { forwarder, webhooks } = webhookServices;

  // One per hub, kept across relocations: a delegation token accepted before a move stays used.
  const replayGuards: MemoryReplayGuard[] = [];
  /** `ports`: where the hub listened before (kept in the state directory); any free ones without. */
  const launch = async (spec: HubSpec, index: number, ports?: HubPorts) => {
    const hub = await startHub({
      id: spec.id,
      name: spec.name,
      cloudIssuer: cloud.issuer,
      cloudPublicJwk: cloud.publicJwk,
      home: spec.home,
      host,
      port: ports?.http,
      tls: spec.platform === 'local' ? certificates.server : undefined,
      securePort: ports?.https ?? undefined,
      identityKey: spec.identity.privateKey,
      sessionTtlSec: options.sessionTtlSec,
      replayGuard: (replayGuards[index] ??= new MemoryReplayGuard()),
      now: options.now,
      logger,
      simulate: options.simulate,
      requestLog: options.requestLog && ((request) => options.requestLog!({ service: spec.id, ...request })),
    });
    hubs[index] = hub;
    const relay = await startRelay({ target: hub.url, latencyMs: options.remoteLatencyMs ?? DEFAULT_RELAY_LATENCY_MS, host, port: ports?.relay });
    relays[index] = relay;
    const addresses = addressesFor(spec, hub, relay);
    cloud.setHubAddresses(spec.id, addresses);
    info.hubs[index] = { id: spec.id, name: spec.name, ...addresses };
    if (options.advertise && spec.platform === 'local') {
      advertisements[index] = advertiseHub({ id: spec.id, name: spec.name, url: hub.url, secureUrl: hub.secureUrl, logger });
    }
  };

  const keep = () =>
    state?.saveStack({
      version: 1,
      host,
      ports: {
        cloud: portOf(cloud.url),
        forwarder: portOf(forwarder.url),
        portal: portOf(webhookServices!.portal.url),
        hubs: Object.fromEntries(
          specs.map((spec, index) => [
            spec.id,
            {
              http: portOf(hubs[index]!.url),
              https: hubs[index]!.secureUrl === null ? null : portOf(hubs[index]!.secureUrl!),
              relay: portOf(relays[index]!.url),
            },
          ]),
        ),
      },
      cloudSigningKey: signingKey!,
      hubIdentityKeys: Object.fromEntries(specs.map((spec) => [spec.id, spec.identity.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string])),
      certificates,
    } satisfies KeptStack);

  try {
    for (const [index, spec] of specs.entries()) await launch(spec, index, kept?.ports.hubs[spec.id]);
    keep();
    load?.start();
  } catch (error) {
    await close();
    throw error;
  }

  return {
    info,
    cloud,
    forwarder,
    webhooks,
    hubs,
    async relocateHub(hubId) {
      const index = specs.findIndex((spec) => spec.id === hubId);
      if (index < 0) throw new Error(`unknown hub: ${hubId}`);
      await Promise.all([advertisements[index]?.close(), relays[index]!.close(), hubs[index]!.close()]);
      await launch(specs[index]!, index);
      keep(); // a hub that moved is found at its new addresses after a restart
      logger.info('stack: hub relocated', { hubId, ...info.hubs[index] });
    },
    close,
  };
}
