/**
 * What the liveness test and bench (test/integration/core/heartbeat.test.ts, test/bench/heartbeat.ts)
 * share: the hub and the forwarder each in a process of their own (hub-process.ts,
 * forwarder-process.ts) that they freeze with SIGSTOP and thaw with SIGCONT; the hub's three routes
 * (plain LAN, secure LAN, and the relay, which runs in the caller's process and so stays up while the
 * hub is frozen); and the app's realtime socket and listener channel on them, recording what they report.
 */
import WebSocket from 'ws';
import { type LiveSocket, plainWebSocket, type OpenWebSocket, realtimeUrl, wsLiveSocket } from '../../main/core/shared/live-socket';
import { systemClock } from '../../main/core/shared/ports';
import { openWebhookChannel, type WebhookChannel } from '../../main/core/webhooks/webhook-channel';
import { type RunningRelay, startRelay } from '../../services/relay/relay';
import { projectRoot, type RunningProgram, startProgram } from '../e2e/support/processes';

/** How long a process may take to start on a loaded machine (tsx compiles it first). */
const START_MS = 120_000;

export interface HubPeer {
  program: RunningProgram;
  token: string;
  routes: Record<HubRoute, { baseUrl: string; opener: OpenWebSocket }>;
  close(): Promise<void>;
}

export type HubRoute = 'plain LAN' | 'secure LAN' | 'relay';
export const HUB_ROUTES: readonly HubRoute[] = ['plain LAN', 'secure LAN', 'relay'];

export async function startHubPeer(): Promise<HubPeer> {
  const program = startProgram(`${projectRoot}test/support/hub-process.ts`);
  let relay: RunningRelay | undefined;
  try {
    const info = JSON.parse(await program.line('hub ', START_MS)) as { url: string; secureUrl: string; ca: string; token: string };
    relay = await startRelay({ target: info.url });
    const trusting: OpenWebSocket = (url, options) => new WebSocket(url, { ...options, ca: info.ca });
    return {
      program,
      token: info.token,
      routes: {
        'plain LAN': { baseUrl: info.url, opener: plainWebSocket },
        'secure LAN': { baseUrl: info.secureUrl, opener: trusting },
        relay: { baseUrl: relay.url, opener: plainWebSocket },
      },
      close: () => stopPeer(program, relay),
    };
  } catch (error) {
    await stopPeer(program, relay);
    throw error;
  }
}

export interface ForwarderPeer {
  program: RunningProgram;
  url: string;
  webhook: { id: string; secret: string };
  close(): Promise<void>;
}

export async function startForwarderPeer(): Promise<ForwarderPeer> {
  const program = startProgram(`${projectRoot}test/support/forwarder-process.ts`);
  try {
    const info = JSON.parse(await program.line('forwarder ', START_MS)) as { url: string; webhooks: { other: { id: string; secret: string } } };
    return { program, url: info.url, webhook: info.webhooks.other, close: () => stopPeer(program) };
  } catch (error) {
    await stopPeer(program);
    throw error;
  }
}

/** Thawed first: a stopped process keeps SIGTERM pending until it runs again. */
async function stopPeer(program: RunningProgram, relay?: RunningRelay): Promise<void> {
  program.child.kill('SIGCONT');
  await relay?.close();
  await program.stop();
}

export const freeze = (program: RunningProgram) => void program.child.kill('SIGSTOP');
export const thaw = (program: RunningProgram) => void program.child.kill('SIGCONT');

/** What a socket reported, in order, with a promise for the next report that fits. */
export class Reports<T> {
  readonly seen: { report: T; at: number }[] = [];
  private waiters: { fits: (report: T) => boolean; resolve: (at: number) => void }[] = [];

  add(report: T): void {
    const at = performance.now();
    this.seen.push({ report, at });
    for (const waiter of this.waiters.filter((candidate) => candidate.fits(report))) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(at);
    }
  }

  /** Resolves with the time (performance.now) of the next report that fits. */
  next(fits: (report: T) => boolean): Promise<number> {
    return new Promise((resolve) => this.waiters.push({ fits, resolve }));
  }
}

export type RealtimeReport = { responding: boolean } | { closed: number };

/** The app's realtime socket on a route, authenticated; resolves once the hub said `ready`. */
export async function openRealtime(hub: HubPeer, route: HubRoute, reports: Reports<RealtimeReport>): Promise<LiveSocket> {
  const { baseUrl, opener } = hub.routes[route];
  let opened!: () => void;
  let ready!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const readied = new Promise<void>((resolve) => (ready = resolve));
  const socket = wsLiveSocket(() => opener)(realtimeUrl(baseUrl), {
    onOpen: () => opened(),
    onMessage: (text) => (text.startsWith('{"type":"ready"') ? ready() : undefined),
    onResponding: (responding) => reports.add({ responding }),
    onClose: (end) => reports.add({ closed: end.code }),
  });
  await open;
  socket.send(JSON.stringify({ type: 'auth', token: hub.token }));
  await readied;
  return socket;
}

/** The app's listener channel to the forwarder; resolves once it is registered. */
export async function openListener(forwarder: ForwarderPeer, reports: Reports<string>): Promise<WebhookChannel> {
  const connected = reports.next((state) => state === 'connected');
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  const channel = openWebhookChannel({
    webhookUrl: forwarder.url,
    webhookId: forwarder.webhook.id,
    secret: forwarder.webhook.secret,
    role: 'listener',
    listenerId: 'liveness',
    hubId: 'h1',
    resumeAfter: () => undefined,
    onConnection: (connection) => reports.add(connection.state),
    logger: quiet,
    clock: systemClock,
  });
  await connected;
  return channel;
}
