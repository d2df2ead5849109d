/**
 * The official JavaScript client of this interface family (`homey-api`, as installed, no patch) runs
 * its documented flow against the reference stack on loopback (docs/security.md, "The official client's names"): the login URL, the
 * consent pages in Chromium, the code exchange in the confidential client's back end, the user and
 * their hubs, a session on a hub found by the client's own discovery, devices, zones, a capability
 * change, flows, a device's history (insights), then an expired access token and an ended hub session, each recovered by the client
 * by itself.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from '@playwright/test';
import { AthomCloudAPI } from 'homey-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config, { chromiumPath } from '../../../playwright.config';
import { INSIGHTS_RESOLUTIONS, InsightsEntriesSchema } from '../../../common/insights';
import { type Device, DeviceSchema } from '../../../common/wire';
import { HUB_SOFTWARE_VERSION } from '../../../services/hub/hub';
import { OFFICIAL_CLIENT, type RunningStack, startStack } from '../../../services/stack';
import { delegationToken, signIn } from './oauth-helpers';

const CALLBACK_PATH = new URL(OFFICIAL_CLIENT.redirectUris[0]!).pathname;

let stack: RunningStack;
let browser: Browser;
let backEnd: Server;
/** Moves the whole stack's clock (cloud and hubs) forward, so tokens expire without waiting. */
let clockOffsetMs = 0;
const requests: { service: string; method: string; path: string }[] = [];
/** The client's HTTPS goes through Node's global agent; trusting the stack's CA there is what NODE_EXTRA_CA_CERTS would do. */
const originalCa = https.globalAgent.options.ca;

beforeAll(async () => {
  stack = await startStack({ now: () => Date.now() + clockOffsetMs, remoteLatencyMs: 0, requestLog: (request) => requests.push(request) });
  https.globalAgent.options.ca = stack.info.ca;
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: config.use?.launchOptions?.args });
  backEnd = createServer();
  backEnd.listen(0, '127.0.0.1');
  await once(backEnd, 'listening');
});

afterAll(async () => {
  https.globalAgent.options.ca = originalCa;
  await browser?.close();
  backEnd?.close();
  await stack?.close();
});

/** The confidential client's back end: answers the browser's return and hands over the code it carries. */
function nextCallback(): Promise<URL> {
  return new Promise((resolve) => {
    backEnd.once('request', (request, response) => {
      const url = new URL(request.url ?? '/', redirectUrl());
      response.writeHead(url.pathname === CALLBACK_PATH ? 200 : 404, { 'content-type': 'text/plain' }).end('You may close this page.');
      resolve(url);
    });
  });
}

const redirectUrl = () => `http://127.0.0.1:${(backEnd.address() as AddressInfo).port}${CALLBACK_PATH}`;

/** The consent pages in Chromium, as a user would go through them; returns where the browser was sent back to. */
async function consentInChromium(loginUrl: string): Promise<URL> {
  const returned = nextCallback();
  const page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  try {
    const steps = (async () => {
      await page.goto(loginUrl);
      await page.getByLabel('Email').fill(stack.info.user.email);
      await page.getByLabel('Password').fill(stack.info.user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Allow' }).click();
    })();
    steps.catch(() => undefined); // when the return wins the race, the steps fail on the closed page: not this test's error
    // A refused request is sent back at once (with `error`), before any form: that return is the answer.
    return await Promise.race([returned, steps.then(() => returned)]);
  } finally {
    await page.close();
  }
}

/**
 * The parts of the client this test uses, as the client's own code has them: its bundled type
 * declarations leave out the managers of a hub API and most record fields.
 */
interface ClientItem {
  id: string;
  name: string;
}
interface ClientLog {
  id: string;
  ownerId: string;
  ownerUri: string;
}
interface ClientDevice extends ClientItem {
  zoneName: string;
  getLogs(): Promise<Record<string, ClientLog>>;
  capabilitiesObj: Record<string, { value: unknown }>;
  setCapabilityValue(change: { capabilityId: string; value: boolean | number | string }): Promise<unknown>;
  getZone(): Promise<ClientItem>;
}
interface ClientHubApi {
  strategyId: string;
  version: string | null;
  devices: { getDevices(): Promise<Record<string, ClientDevice>>; getDevice(query: { id: string }): Promise<ClientDevice> };
  zones: { getZones(): Promise<Record<string, ClientItem>> };
  flow: { getFlows(): Promise<Record<string, ClientItem>>; triggerFlow(query: { id: string }): Promise<unknown> };
  insights: { getLogs(): Promise<Record<string, ClientLog>>; getLogEntries(query: { id: string; resolution: string }): Promise<unknown> };
}
interface ClientHub {
  id: string;
  name: string;
  authenticate(options: { strategy: string[] }): Promise<ClientHubApi>;
}
interface ClientUser {
  email: string;
  getHomeys(): ClientHub[];
  getFirstHomey(): ClientHub;
  getHomeyById(id: string): ClientHub;
}
/**
 * The client's discovery strategies but `mdns`: that one resolves `homey-<id>.local` through the
 * system resolver, a query that would leave the loopback (tests talk to loopback only). The others are
 * the hub record's addresses, as the default list tries them.
 */
const LOOPBACK_STRATEGIES = { strategy: ['localSecure', 'local', 'cloud'] };
const userOf = async (cloud: AthomCloudAPI, $cache = true) => (await cloud.getAuthenticatedUser({ $cache: $cache as never })) as unknown as ClientUser;

/** The stack's hub record by name, as StackInfo lists it. */
const hubNamed = (name: string) => stack.info.hubs.find((hub) => hub.name === name)!;

/** Calls of one kind the stack has received so far (its request log). */
const count = (service: string, method: string, path: string) => requests.filter((r) => r.service === service && r.method === method && r.path === path).length;

/** A device as the hub itself reports it, read with a session of our own (the desktop client's), not through homey-api. */
async function deviceOnHub(deviceId: string): Promise<Device> {
  const home = hubNamed('Home');
  const { access_token } = await signIn(stack.info.auth_url, { ...stack.info.client, redirectUri: stack.info.client.redirect_uri }, stack.info.user);
  const login = await fetch(`${home.localUrl!}/api/manager/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: await delegationToken(stack.info.auth_url, access_token, home.id) }),
  });
  const session = (await login.json()) as string;
  const response = await fetch(`${home.localUrl!}/api/manager/devices/device/${deviceId}`, { headers: { authorization: `Bearer ${session}` } });
  return DeviceSchema.parse(await response.json());
}

describe('the official client (homey-api) against the reference stack', () => {
  const store = new AthomCloudAPI.StorageAdapterMemory();
  const api = () =>
    new AthomCloudAPI({ clientId: OFFICIAL_CLIENT.id, clientSecret: OFFICIAL_CLIENT.secret, redirectUrl: redirectUrl(), baseUrl: stack.info.auth_url, store });
  let cloud: AthomCloudAPI;
  let homey: ClientHubApi;
  const storedToken = async () => ((await store.get()) as { token: { access_token: string; refresh_token: string } }).token;

  it('signs in through the consent page in Chromium and redeems the code in its back end', async () => {
    cloud = api();
    const state = 'official-client-state';
    const callback = await consentInChromium(cloud.getLoginUrl({ state }));
    expect(callback.searchParams.get('error')).toBeNull();
    expect(callback.searchParams.get('state')).toBe(state);
    const code = callback.searchParams.get('code');
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const token = await cloud.authenticateWithAuthorizationCode({ code: code! });
    expect(token.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await cloud.isLoggedIn()).toBe(true);
    expect((await storedToken()).access_token).toBe(token.access_token);
  });

  it('reads the user and their hubs, and opens a session on the first by its own discovery (the secure LAN route)', async () => {
    const user = await userOf(cloud);
    expect(user.email).toBe(stack.info.user.email);
    expect(user.getHomeys().map((hub) => hub.name)).toEqual(['Home', 'Holiday cabin']);
    const first = user.getFirstHomey();
    expect(first.id).toBe(hubNamed('Home').id);

    const logins = count(first.id, 'POST', '/api/manager/users/login');
    homey = await first.authenticate(LOOPBACK_STRATEGIES);
    expect(count(first.id, 'POST', '/api/manager/users/login')).toBe(logins + 1);
    expect(homey.strategyId).toBe('localSecure');
    expect(homey.version).toBe(HUB_SOFTWARE_VERSION);
  });

  it('lists devices and zones, reads one device and its zone', async () => {
    const devices = await homey.devices.getDevices();
    const lamp = Object.values(devices).find((device) => device.name === 'Floor lamp')!;
    expect(Object.keys(devices)).toHaveLength(28);
    expect(lamp.capabilitiesObj.onoff!.value).toBe(false);

    const one = await homey.devices.getDevice({ id: lamp.id });
    expect(one.id).toBe(lamp.id);
    expect(one.name).toBe('Floor lamp');

    const zones = await homey.zones.getZones();
    expect(
      Object.values(zones)
        .map((zone) => zone.name)
        .sort(),
    ).toEqual([...new Set(Object.values(devices).map((device) => device.zoneName))].sort());
    expect((await one.getZone()).name).toBe('Living room');
  });

  it('changes a capability, and the hub itself reports the new value', async () => {
    const devices = await homey.devices.getDevices();
    const lamp = Object.values(devices).find((device) => device.name === 'Floor lamp')!;
    expect((await deviceOnHub(lamp.id)).capabilitiesObj!.onoff!.value).toBe(false);
    await lamp.setCapabilityValue({ capabilityId: 'onoff', value: true });
    expect((await deviceOnHub(lamp.id)).capabilitiesObj!.onoff!.value).toBe(true);
  });

  it('lists flows and starts one, whose effect the hub reports', async () => {
    const flows = await homey.flow.getFlows();
    expect(Object.values(flows).map((flow) => flow.name)).toContain('Movie time');
    const movieTime = Object.values(flows).find((flow) => flow.name === 'Movie time')!;
    const ceiling = Object.values(await homey.devices.getDevices()).find((device) => device.name === 'Ceiling light')!;
    expect((await deviceOnHub(ceiling.id)).capabilitiesObj!.dim!.value).toBe(0.8);

    await homey.flow.triggerFlow({ id: movieTime.id });
    expect((await deviceOnHub(ceiling.id)).capabilitiesObj!.dim!.value).toBe(0.2);
  });

  it('reads the history of a device: its logs and a day of entries', async () => {
    const thermostat = Object.values(await homey.devices.getDevices()).find((device) => device.name === 'Bedroom thermostat')!;
    const logs = await homey.insights.getLogs();
    const log = Object.values(logs).find((entry) => entry.ownerId === thermostat.id && entry.id.endsWith(':measure_temperature'))!;
    expect(log).toMatchObject({ ownerUri: `homey:device:${thermostat.id}`, type: 'number', units: '°C' });
    expect(Object.keys(await thermostat.getLogs())).toContain(log.id);

    const day = InsightsEntriesSchema.parse(await homey.insights.getLogEntries({ id: log.id, resolution: 'last24Hours' }));
    expect(day.step).toBe(INSIGHTS_RESOLUTIONS.last24Hours.stepMs);
    expect(day.values.length).toBeGreaterThanOrEqual(288);
    expect(day.values.filter((entry) => typeof entry.v === 'number').length).toBeGreaterThan(280); // the demo home's backfilled history
  });

  it('refreshes its access token by itself once it has expired', async () => {
    const before = await storedToken();
    const refreshes = count('cloud', 'POST', '/oauth2/token');
    clockOffsetMs += 3601_000; // past the access token's hour
    const user = await userOf(cloud, false);
    expect(user.email).toBe(stack.info.user.email);
    expect(count('cloud', 'POST', '/oauth2/token')).toBe(refreshes + 1);
    const after = await storedToken();
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
  });

  it('logs in on the hub again by itself once its session has ended', async () => {
    const home = hubNamed('Home');
    const logins = count(home.id, 'POST', '/api/manager/users/login');
    stack.hubs[0]!.expireSessions();
    const devices = await homey.devices.getDevices();
    expect(Object.keys(devices)).toHaveLength(28);
    expect(count(home.id, 'POST', '/api/manager/users/login')).toBe(logins + 1);
  });

  it('recovers from both at once: the hub session ended and the access token expired', async () => {
    const home = hubNamed('Home');
    const logins = count(home.id, 'POST', '/api/manager/users/login');
    const refreshes = count('cloud', 'POST', '/oauth2/token');
    clockOffsetMs += 3601_000;
    stack.hubs[0]!.expireSessions();
    expect(Object.keys(await homey.zones.getZones())).toHaveLength(8);
    expect(count('cloud', 'POST', '/oauth2/token')).toBe(refreshes + 1);
    expect(count(home.id, 'POST', '/api/manager/users/login')).toBe(logins + 1);
  });

  it('opens the cloud-hosted hub over its remote route', async () => {
    const cabin = (await userOf(cloud)).getHomeyById(hubNamed('Holiday cabin').id);
    const cabinApi = await cabin.authenticate(LOOPBACK_STRATEGIES);
    expect(cabinApi.strategyId).toBe('cloud');
    const names = Object.values(await cabinApi.devices.getDevices()).map((device) => device.name);
    expect(names).toContain('Panel heater');
  });
});
