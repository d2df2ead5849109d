/**
 * The reference services together: one cloud with the demo client and user, and the user's two hubs
 * ("Home" on the LAN, "Holiday cabin" in the cloud). The app's embedded default and the peer of the
 * integration and end-to-end tests. Everything listens on loopback ports chosen by the OS.
 */
import type { Logger } from '../main/core/ports';
import { type ClientRegistration, type HubAddresses, type RunningCloud, startCloud } from './cloud/cloud';
import { createDemoHome, type DemoHome } from './hub/demo-home';
import { type RunningHub, startHub } from './hub/hub';
import { silentLogger } from './shared/logger';
import type { HubPlatform } from '../common/wire';

export interface StackOptions {
  host?: string;
  now?: () => number;
  accessTokenTtlSec?: number;
  codeTtlSec?: number;
  delegationTtlSec?: number;
  sessionTtlSec?: number;
  logger?: Logger;
}

/** What a client needs to use the stack; printed as JSON by stack-cli. */
export interface StackInfo {
  auth_url: string;
  hubs: ({ id: string; name: string } & HubAddresses)[];
  client: { id: string; secret: string; redirect_uri: string; loopback_redirect_uri: string };
  user: { email: string; password: string };
}

export interface RunningStack {
  info: StackInfo;
  cloud: RunningCloud;
  /** The running hubs, in the order of `info.hubs`; an entry is replaced when its hub is relocated. */
  hubs: RunningHub[];
  /** Restarts a hub on a new port (same devices, sessions dropped) and tells the cloud its new address. */
  relocateHub(hubId: string): Promise<void>;
  close(): Promise<void>;
}

const REDIRECT_URI = 'io.hubdesk.app:/oauth/callback';
const LOOPBACK_REDIRECT_URI = 'http://127.0.0.1/oauth/callback';

/** The desktop app's registration. Its secret is public by nature (RFC 8252 §8.5); PKCE protects the code. */
export const DEMO_CLIENT: ClientRegistration = {
  id: 'hubdesk-desktop',
  secret: 'hubdesk-desktop-demo-secret',
  name: 'Hubdesk',
  native: true,
  redirectUris: [REDIRECT_URI, LOOPBACK_REDIRECT_URI],
  scopes: ['devices.readonly', 'devices', 'flow.readonly', 'flow.start'],
};

export const DEMO_USER = { _id: 'user-5e1f0c2a9b7d4e3f', email: 'demo@hubdesk.test', password: 'hubdesk-demo', firstname: 'Demo', lastname: 'User' };

interface HubSpec {
  id: string;
  name: string;
  platform: HubPlatform;
  home: DemoHome;
}

const NO_ADDRESSES: HubAddresses = { localUrl: null, localUrlSecure: null, remoteUrl: null };

/** A LAN hub is reached at its plain local address; a cloud hub only remotely. */
function addressesFor(spec: HubSpec, url: string): HubAddresses {
  return spec.platform === 'local' ? { ...NO_ADDRESSES, localUrl: url } : { ...NO_ADDRESSES, remoteUrl: url };
}

export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? silentLogger;
  const specs: HubSpec[] = [
    { id: 'hub-3f9a6c1e2d7b4a58', name: 'Home', platform: 'local', home: createDemoHome('home') },
    { id: 'hub-8b2e5d7a1c4f9e63', name: 'Holiday cabin', platform: 'cloud', home: createDemoHome('cabin') },
  ];

  const cloud = await startCloud({
    host,
    clients: [DEMO_CLIENT],
    users: [{ ...DEMO_USER, hubs: specs.map(({ id, name, platform }) => ({ _id: id, name, platform, ...NO_ADDRESSES })) }],
    accessTokenTtlSec: options.accessTokenTtlSec,
    codeTtlSec: options.codeTtlSec,
    delegationTtlSec: options.delegationTtlSec,
    now: options.now,
    demoHint: { email: DEMO_USER.email, password: DEMO_USER.password },
    logger,
  });
  const hubs: RunningHub[] = [];
  const info: StackInfo = {
    auth_url: cloud.url,
    hubs: [],
    client: { id: DEMO_CLIENT.id, secret: DEMO_CLIENT.secret, redirect_uri: REDIRECT_URI, loopback_redirect_uri: LOOPBACK_REDIRECT_URI },
    user: { email: DEMO_USER.email, password: DEMO_USER.password },
  };

  const launch = async (spec: HubSpec, index: number) => {
    const hub = await startHub({
      id: spec.id,
      name: spec.name,
      cloudIssuer: cloud.issuer,
      cloudPublicJwk: cloud.publicJwk,
      home: spec.home,
      host,
      sessionTtlSec: options.sessionTtlSec,
      now: options.now,
      logger,
    });
    const addresses = addressesFor(spec, hub.url);
    cloud.setHubAddresses(spec.id, addresses);
    hubs[index] = hub;
    info.hubs[index] = { id: spec.id, name: spec.name, ...addresses };
  };

  const close = async () => {
    await Promise.allSettled([...hubs.map((hub) => hub.close()), cloud.close()]);
  };

  try {
    for (const [index, spec] of specs.entries()) await launch(spec, index);
  } catch (error) {
    await close();
    throw error;
  }

  return {
    info,
    cloud,
    hubs,
    async relocateHub(hubId) {
      const index = specs.findIndex((spec) => spec.id === hubId);
      if (index < 0) throw new Error(`unknown hub: ${hubId}`);
      await hubs[index]!.close();
      await launch(specs[index]!, index);
      logger.info('stack: hub relocated', { hubId, url: hubs[index]!.url });
    },
    close,
  };
}
