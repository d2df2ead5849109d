/**
 * One client's many slow connections must not starve another client (docs/security.md, "One client's
 * share"), on every service: the cloud, the hub (HTTP and HTTPS), the tools portal and the forwarder.
 * Scaled down from the audit's 1,100 sockets at 200 a second under a cap of 1,000: each service runs with
 * a global cap of GLOBAL and per-address limits (connections held, new connections a second, requests in
 * flight) far below it; the attacker (127.0.0.2) keeps ATTACK slow sockets open or opening, more than the
 * global cap, and reconnects at once when one is closed; the victim (127.0.0.3) asks VICTIM requests
 * meanwhile. Timeouts are out of the way, so the attacker's sockets stay until the test ends. Nothing is
 * timed: the victim's requests are counted as answered (200) or not (refused, reset, or unanswered after
 * a generous bound).
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startCloud } from '../../../services/cloud/cloud';
import { startForwarder } from '../../../services/forwarder/forwarder';
import type { AddressLimits } from '../../../services/shared/address-limits';
import type { ConnectionLimits } from '../../../services/shared/http-app';
import { createStackCertificates } from '../../../services/shared/stack-ca';
import { FASTIFY_SERVICES, HUB_REQUESTS, type ServiceUnderTest, startLimitedHub, USER } from '../../support/limited-services';
import { rawExchange } from '../../support/raw-http';
import {
  ATTACKER_ADDRESS,
  SLOW_WEBHOOK,
  slowWebhookStore,
  startSlowAttack,
  VICTIM_ADDRESS,
  victimGet,
  type VictimRequest,
  victimRequests,
} from '../../support/slow-sockets';

const GLOBAL = 40;
const ATTACK = 60;
const VICTIM = 100;
/** A bound for "answered", not a measurement: far beyond any answer on a busy machine. */
const BOUND_MS = 30_000;
const PER_ADDRESS: Omit<AddressLimits, 'exemptAddresses'> = {
  maxConnectionsPerAddress: 8,
  newConnectionsPerSecondPerAddress: 50,
  newConnectionBurstPerAddress: 8,
  maxRequestsPerAddress: 4,
};
const LIMITS: Partial<ConnectionLimits> = {
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 60_000,
  maxConnections: GLOBAL,
  ...PER_ADDRESS,
};

const certificates = await createStackCertificates(['127.0.0.1'], ['h1']);

/** A service, and what the victim asks it. */
type UnderAttack = Omit<ServiceUnderTest, 'get'> & { victim: VictimRequest };
const withVictimGet = ({ get, ...service }: ServiceUnderTest): UnderAttack => ({ ...service, victim: victimGet(get) });

const SERVICES: UnderAttack[] = [
  ...FASTIFY_SERVICES.map((service) =>
    service.name === 'hub'
      ? { ...service, name: 'hub (HTTP)', start: (limits: Partial<ConnectionLimits>) => startLimitedHub(limits, certificates.server) }
      : service,
  ).map(withVictimGet),
  withVictimGet({ name: 'hub (HTTPS)', start: (limits) => startLimitedHub(limits, certificates.server, true), ...HUB_REQUESTS, ca: certificates.ca }),
  {
    name: 'forwarder',
    start: async ({ headersTimeoutMs, requestTimeoutMs, maxConnections, ...addressLimits }) =>
      startForwarder({ store: await slowWebhookStore(), maxConnections, limits: { headersTimeoutMs, requestTimeoutMs }, addressLimits }),
    post: { path: `/webhook/${SLOW_WEBHOOK.id}`, contentType: 'application/json' },
    // Its public port has no GET (health and metrics are on the admin listener): the victim's intakes, empty, are answered 202.
    victim: { path: `/webhook/${SLOW_WEBHOOK.id}`, method: 'POST', status: 202 },
  },
];

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe.each(SERVICES)('$name', (service) => {
  it(`keeps answering another address while one address holds ${ATTACK} slow sockets and reconnects at once`, async () => {
    const running = await service.start(LIMITS);
    cleanup.push(() => running.close());
    const attack = startSlowAttack(running.url, {
      sockets: ATTACK,
      perSecond: 200,
      path: service.post.path,
      contentType: service.post.contentType,
      ca: service.ca,
    });
    cleanup.push(() => attack.stop());
    await attack.placed;

    const victim = await victimRequests(running.url, service.victim, { count: VICTIM, concurrency: 4, boundMs: BOUND_MS, ca: service.ca });

    expect({ answered: victim.answered, failed: victim.failed }).toEqual({ answered: VICTIM, failed: 0 });
    // The attacker was refused (answered 429, or closed on the TLS listener), beyond its first few sockets.
    expect(attack.counts.answered + attack.counts.closed).toBeGreaterThan(0);
  });
});

describe('each per-address limit (plain HTTP, the cloud)', () => {
  const start = async (limits: Partial<ConnectionLimits>) => {
    const cloud = await startCloud({
      clients: [],
      users: [USER],
      connectionLimits: { headersTimeoutMs: 60_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 60_000, ...limits },
    });
    cleanup.push(() => cloud.close());
    return cloud.url;
  };
  const held = async (url: string, count: number) => {
    const sockets = await Promise.all(Array.from({ length: count }, () => opened(url, ATTACKER_ADDRESS)));
    cleanup.push(() => sockets.forEach((socket) => socket.destroy()));
    return sockets;
  };

  it("answers 429 to a connection beyond the address's connections held, and serves another address", async () => {
    const url = await start({ maxConnectionsPerAddress: 3 });
    const sockets = await held(url, 3);
    const refused = await rawExchange(url, () => {}, ATTACKER_ADDRESS);
    expect(refused.status).toBe(429);
    expect(refused.text).toMatch(/\r\nRetry-After: 1\r\n[^]*"error":"too_many_requests"/);
    expect(await get(url, VICTIM_ADDRESS)).toBe(200);
    // A slot the server freed is the address's again (the server's count drops when it has closed the socket).
    sockets[0]!.resume().end(`GET /.well-known/jwks.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    await closed(sockets[0]!);
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) status = await get(url, ATTACKER_ADDRESS);
    expect(status).toBe(200);
  });

  it("answers 429 to new connections beyond the address's burst, and serves another address", async () => {
    // Ten at once against a burst of two refilled at one a second: unless this machine stalls for eight seconds, some are refused.
    const url = await start({ newConnectionsPerSecondPerAddress: 1, newConnectionBurstPerAddress: 2 });
    const statuses = await Promise.all(Array.from({ length: 10 }, () => get(url, ATTACKER_ADDRESS)));
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses).toContain(429);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(await get(url, VICTIM_ADDRESS)).toBe(200);
  });

  it("answers 429 to a request beyond the address's requests in flight, and serves another address", async () => {
    const url = await start({ maxRequestsPerAddress: 2 });
    // Two requests whose bodies never end are in flight: the cloud waits for a form body.
    for (const socket of await held(url, 2))
      socket.write(`POST /oauth2/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\na`);
    // Written on another connection: the two before it are read first, unless this connection overtakes them; then ask again.
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 429; attempt++) status = await get(url, ATTACKER_ADDRESS);
    expect(status).toBe(429);
    expect(await get(url, VICTIM_ADDRESS)).toBe(200);
  });

  it('counts an exempt address against the global cap only', async () => {
    const url = await start({ maxConnectionsPerAddress: 1, exemptAddresses: [`${ATTACKER_ADDRESS}/32`] });
    await held(url, 3);
    expect(await get(url, ATTACKER_ADDRESS)).toBe(200);
  });
});

function opened(url: string, localAddress: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

function closed(socket: Socket): Promise<void> {
  socket.on('error', () => {});
  return socket.closed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
}

/** One GET of the cloud's JWKS on a new connection from `localAddress`: its status, 0 when closed unanswered. */
function get(url: string, localAddress: string): Promise<number> {
  return rawExchange(
    url,
    (socket) => void socket.write(`GET /.well-known/jwks.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    localAddress,
  ).then(
    (answer) => answer.status,
    () => 0,
  );
}
