/**
 * The app's webhook listener: for every registration, a `listener` socket (receives and acknowledges
 * the messages routed to this app, resuming after the persisted last acknowledgement) and, when the
 * registration has the owner's tap credential, a `tap` socket (every intake with its routing
 * decision), both kept open by webhook-channel.ts. Without a tap credential there is no tap: the
 * webhook secret does not open one (the tap would show other hubs' traffic), so the inspector shows
 * this app's own deliveries only. The listener asks for messages with the raw body only, and the tap
 * names the listener as this app's own, so an intake routed here crosses the network with its body
 * once. It serves the `webhooks.*` channels (the `inspector.*` ones are inspector-face.ts's) and emits `webhooks.entry` (once per
 * intake), `webhooks.entryPatch` (what the other copy changed), `webhooks.status` and `webhooks.view` (the
 * forwarder named the webhook: its name is kept with the registration, to be shown offline too) and, for a
 * registration with a Forward-to URL, `webhooks.forward` (each delivered message is also sent on to that local
 * server by webhook-forwarding.ts, which only queues: the acknowledgement never waits for it). Registrations
 * belong to the developer, not to the cloud sign-in, so signing out leaves them running; but a registration
 * naming a hub proves, at each (re)connection, that this app acts for that hub with a fresh delegation token of
 * the signed-in account (webhook-hub-token.ts), so signed out it waits at its next reconnection until a sign-in.
 */
import { AppError } from '../../../common/app-error';
import {
  type EventPayload,
  WEBHOOK_UNDO_MS,
  type WebhookConnection,
  type WebhookEdit,
  type WebhookRegistrationInput,
  type WebhookView,
} from '../../../common/ipc-contract';
import { oneLine } from '../../../common/one-line';
import { intakeUrl, MAX_WEBHOOK_NAME_LENGTH, parseTapCredential, type RegistrationData } from '../../../common/webhook-protocol';
import { createEventEmitter } from '../shared';
import type { OpenWebSocket } from '../shared';
import { type Clock, type Logger, realSchedule, type Schedule } from '../shared';
import { openWebhookChannel, type WebhookChannel, type WebhookChannelOptions } from './webhook-channel';
import { hubTokenSource } from './webhook-hub-token';
import type { InspectorChange, WebhookInspector } from './webhook-inspector';
import { createForwarding, type Forwarding, type ForwardingDeps } from './webhook-forwarding';
import { REPLAY_GONE } from './webhook-replay';
import type { WebhookRegistration, WebhookRegistrations } from './webhook-registrations';

type WebhookEvent = 'webhooks.entry' | 'webhooks.entryPatch' | 'webhooks.status' | 'webhooks.view' | 'webhooks.forward';

export const NO_FORWARDER_REASON = 'No webhook forwarder is configured (set HUBDESK_WEBHOOK_URL).';
export const NO_SECRET_REASON = 'The secret was kept only until Hubdesk quit; add this webhook again with its secret.';
export const UNDO_TOO_LATE = 'This webhook was removed too long ago to bring it back; add it again with its secret.';
export const NO_SUCH_WEBHOOK = 'There is no such webhook here (it may have been removed).';
export const NO_FORWARD_TO = 'This webhook has no Forward-to URL; set one with Edit.';
export const NO_TAP_CREDENTIAL_REASON = 'The tap credential could not be read; add this webhook again with it to see routing decisions.';

export interface WebhookListener {
  start(): Promise<void>;
  list(): WebhookView[];
  add(input: WebhookRegistrationInput): Promise<WebhookView>;
  /** Stops it now; forgets it WEBHOOK_UNDO_MS later unless `undoRemove` brings it back first. */
  remove(id: string): void;
  undoRemove(id: string): WebhookView;
  /** Changes the routing, signing secret or Forward to in place; a new routing reconnects (same listener ids, so the forwarder resumes). */
  edit(edit: WebhookEdit): Promise<WebhookView>;
  /** Queues a kept message for the registration's Forward-to URL again. */
  forwardAgain(webhookId: string, id: string): void;
  /** The signing secret of a running registration, if it has one (the inspector checks signatures with it). */
  signingSecret(webhookId: string): string | undefined;
  /** Sends a change of the inspector to the window, as the listener's own are (an import's new entries). */
  announce(change: InspectorChange): void;
  on<E extends WebhookEvent>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** The machine woke or its network changed: every channel connects again now (resuming after its last acknowledged message). */
  reconnect(): void;
  /** Someone signed in: registrations naming a hub that wait for a delegation token try again. */
  retryWaiting(): void;
  dispose(): void;
}

export interface WebhookListenerDeps {
  webhookUrl: string | null;
  registrations: WebhookRegistrations;
  inspector: WebhookInspector;
  logger: Logger;
  clock: Clock;
  /** The host's WebSocket opener (trusting its CAs), for an https forwarder; plain `ws` by default. */
  openWebSocket?: OpenWebSocket;
  /** Replaced in tests to speed up heartbeats or control scheduling. */
  channelOptions?: Pick<WebhookChannelOptions, 'schedule'> & { backoff?: () => WebhookChannelOptions['backoff'] };
  /** Runs the forgetting of a removed registration later (real timers unless replaced in tests). */
  schedule?: Schedule;
  /**
   * A fresh delegation token for one hub (cloud-client.ts): a registration naming a hub sends one with each
   * registration. Without it (tests against a forwarder that trusts hub ids) none is sent.
   */
  delegationToken?(hubId: string): Promise<string>;
  /** Forward to's retry jitter and bounds, replaced in tests. */
  forwardingOptions?: Pick<ForwardingDeps, 'random' | 'limits'>;
}

interface Running {
  registration: WebhookRegistration;
  /** No `tap` when the registration has no tap credential: then the listener alone is the state. */
  connection: { listener: WebhookConnection; tap?: WebhookConnection };
  channels: WebhookChannel[];
  /** Present while the registration has a Forward-to URL. */
  forwarding?: Forwarding;
}

/** The worse of the two sockets is the registration's state: a dead tap is as visible as a dead listener. */
const SEVERITY: Record<WebhookConnection['state'], number> = { connected: 0, connecting: 1, 'not-responding': 2, reconnecting: 3, unavailable: 4, refused: 5 };
const worse = (a: WebhookConnection, b: WebhookConnection) => (SEVERITY[b.state] > SEVERITY[a.state] ? b : a);

export function registrationData(registration: WebhookRegistration): { hubId?: string; data?: RegistrationData } {
  const { routing } = registration;
  if (routing.kind === 'hub') return { hubId: routing.hubId };
  return { data: routing.values.length === 1 ? { $key: routing.values[0] } : { $keys: routing.values } };
}

export function createWebhookListener(deps: WebhookListenerDeps): WebhookListener {
  const { registrations, inspector, logger, clock } = deps;
  const running = new Map<string, Running>();
  /** Removed, not yet forgotten: the registration and how to forget it now (on dispose) or cancel that (undo, a new add). */
  const removed = new Map<string, { registration: WebhookRegistration; cancel: () => void }>();
  const schedule = deps.schedule ?? realSchedule;
  const forget = (id: string) => {
    removed.get(id)?.cancel();
    removed.delete(id);
    registrations.remove(id);
    inspector.forget(id);
  };
  const events = createEventEmitter<WebhookEvent>(logger);
  const emit = events.emit;
  let disposed = false;

  const emitChange = (change: InspectorChange) => {
    if (change?.kind === 'entry') emit('webhooks.entry', change.entry);
    else if (change?.kind === 'patch') emit('webhooks.entryPatch', change.patch);
  };

  const connectionOf = ({ connection }: Running) => (connection.tap ? worse(connection.listener, connection.tap) : connection.listener);
  const view = (run: Running): WebhookView => ({
    id: run.registration.id,
    routing: run.registration.routing,
    ...(run.registration.label !== undefined && { label: run.registration.label }),
    ...(run.registration.webhookName !== undefined && { webhookName: run.registration.webhookName }),
    hasTapCredential: run.registration.tapCredential !== undefined,
    hasSigningSecret: run.registration.signingSecret !== undefined,
    ...(run.registration.forwardTo !== undefined && { forwardTo: run.registration.forwardTo }),
    intakeUrl: deps.webhookUrl === null ? null : intakeUrl(deps.webhookUrl, run.registration.id),
    connection: connectionOf(run),
  });

  const update = (run: Running, socket: 'listener' | 'tap', connection: WebhookConnection) => {
    if (running.get(run.registration.id) !== run) return; // removed or replaced meanwhile
    const before = JSON.stringify(connectionOf(run));
    run.connection[socket] = connection;
    const after = connectionOf(run);
    if (JSON.stringify(after) !== before) emit('webhooks.status', { webhookId: run.registration.id, connection: after });
  };

  /** The forwarder's name for the webhook, made one safe line (it is the owner's text, shown as is). */
  const named = (run: Running, name: string) => {
    const webhookName = oneLine(name, MAX_WEBHOOK_NAME_LENGTH);
    if (running.get(run.registration.id) !== run || webhookName === '' || run.registration.webhookName === webhookName) return;
    run.registration = { ...run.registration, webhookName };
    registrations.setWebhookName(run.registration.id, webhookName);
    emit('webhooks.view', view(run));
  };

  const stop = (id: string) => {
    const run = running.get(id);
    running.delete(id);
    for (const channel of run?.channels ?? []) channel.stop();
    run?.forwarding?.stop();
  };

  /** Forward to: each message's progress is a `webhooks.forward` event; a message given up on is logged (its id, never its content). */
  const forwardingFor = (webhookId: string, url: string | undefined): Forwarding | undefined =>
    url === undefined
      ? undefined
      : createForwarding({
          url,
          clock,
          schedule,
          ...deps.forwardingOptions,
          onProgress: ({ id, forward, queue }) => {
            if (forward.state === 'failed') logger.warn('webhooks: forwarding a message failed', { webhookId, id, attempts: forward.attempts });
            emit('webhooks.forward', { webhookId, id, forward, queue });
          },
        });

  const launch = (registration: WebhookRegistration) => {
    stop(registration.id);
    const { webhookUrl } = deps;
    const { secret, tapCredential } = registration;
    const blocked = webhookUrl === null ? NO_FORWARDER_REASON : secret === null ? NO_SECRET_REASON : null;
    const initial: WebhookConnection = blocked === null ? { state: 'connecting' } : { state: 'unavailable', reason: blocked };
    const credential = tapCredential ? parseTapCredential(tapCredential) : undefined;
    const tap = tapCredential === undefined ? undefined : credential ? initial : ({ state: 'unavailable', reason: NO_TAP_CREDENTIAL_REASON } as const);
    const run: Running = {
      registration,
      connection: { listener: initial, ...(tap && { tap }) },
      channels: [],
      forwarding: forwardingFor(registration.id, registration.forwardTo),
    };
    running.set(registration.id, run);
    emit('webhooks.status', { webhookId: registration.id, connection: connectionOf(run) });
    if (webhookUrl === null || secret === null) return run;

    const common = {
      webhookUrl,
      webhookId: registration.id,
      logger,
      clock,
      schedule: deps.channelOptions?.schedule,
      openWebSocket: deps.openWebSocket,
      resumeAfter: () => registrations.lastAck(registration.id),
    };
    run.channels.push(
      openWebhookChannel({
        ...common,
        ...registrationData(registration),
        ...(registration.routing.kind === 'hub' && deps.delegationToken && { hubToken: hubTokenSource(deps.delegationToken, registration.routing.hubId) }),
        secret,
        backoff: deps.channelOptions?.backoff?.(),
        role: 'listener',
        listenerId: registration.listenerId,
        // Forwarding only queues: the acknowledgement never waits for the local server.
        onMessage: (message) => {
          emitChange(inspector.delivered(registration.id, message));
          run.forwarding?.forward(message);
        },
        onAcknowledged: (id) => registrations.setLastAck(registration.id, id),
        onDropped: (notice) => {
          logger.warn('webhooks: the forwarder dropped messages for this app (its buffer was full)', { webhookId: registration.id, count: notice.count });
          for (const patch of inspector.dropped(registration.id, notice)) emit('webhooks.entryPatch', patch);
        },
        onConnection: (connection) => update(run, 'listener', connection),
        onWebhookName: (name) => named(run, name),
      }),
    );
    if (credential) {
      run.channels.push(
        openWebhookChannel({
          ...common,
          secret: credential.secret,
          credentialId: credential.id,
          backoff: deps.channelOptions?.backoff?.(),
          role: 'tap',
          listenerId: registration.tapId,
          ownListenerIds: [registration.listenerId],
          onTap: (event) => emitChange(inspector.tapped(registration.id, event)),
          onConnection: (connection) => update(run, 'tap', connection),
          onWebhookName: (name) => named(run, name),
        }),
      );
    }
    return run;
  };

  return {
    async start() {
      const loaded = await registrations.load();
      if (disposed) return;
      for (const registration of loaded) if (!running.has(registration.id)) launch(registration);
    },
    list: () => [...running.values()].map(view),
    async add(input) {
      // A new add of a webhook removed moments ago replaces it: its forgetting must not follow.
      removed.get(input.id)?.cancel();
      removed.delete(input.id);
      const registration = await registrations.add(input);
      if (disposed) throw new Error('the webhook listener has been disposed');
      return view(launch(registration));
    },
    remove(id) {
      const run = running.get(id);
      stop(id);
      if (!run) return forget(id);
      removed.get(id)?.cancel();
      removed.set(id, { registration: run.registration, cancel: schedule(() => forget(id), WEBHOOK_UNDO_MS) });
    },
    undoRemove(id) {
      const pending = removed.get(id);
      if (!pending || disposed) throw new AppError('invalid-argument', UNDO_TOO_LATE);
      pending.cancel();
      removed.delete(id);
      return view(launch(pending.registration));
    },
    async edit(edit) {
      const run = running.get(edit.id);
      const changed = run && (await registrations.edit(edit));
      if (!run || !changed || disposed || running.get(edit.id) !== run) throw new AppError('invalid-argument', NO_SUCH_WEBHOOK);
      const signingSecret = edit.signingSecret === undefined ? run.registration.signingSecret : (edit.signingSecret ?? undefined);
      const { forwardTo: _f, ...rest } = run.registration;
      const registration: WebhookRegistration = {
        ...rest,
        routing: changed.routing,
        signingSecret,
        ...(changed.forwardTo !== undefined && { forwardTo: changed.forwardTo }),
      };
      if (JSON.stringify(registration.routing) !== JSON.stringify(run.registration.routing)) return view(launch(registration));
      if (registration.forwardTo !== run.registration.forwardTo) {
        run.forwarding?.stop();
        run.forwarding = forwardingFor(registration.id, registration.forwardTo);
      }
      run.registration = registration;
      const changedView = view(run);
      emit('webhooks.view', changedView);
      return changedView;
    },
    forwardAgain(webhookId, id) {
      const run = running.get(webhookId);
      if (!run) throw new AppError('invalid-argument', NO_SUCH_WEBHOOK);
      if (!run.forwarding) throw new AppError('invalid-argument', NO_FORWARD_TO);
      const source = inspector.source(webhookId, id);
      if (!source) throw new AppError('invalid-argument', REPLAY_GONE);
      run.forwarding.forward({ id, ...source }, { again: true });
    },
    signingSecret: (webhookId) => running.get(webhookId)?.registration.signingSecret ?? undefined,
    announce: emitChange,
    on: events.on,
    reconnect() {
      for (const run of running.values()) for (const channel of run.channels) channel.reconnect();
    },
    retryWaiting() {
      for (const run of running.values()) for (const channel of run.channels) channel.retryIfWaiting();
    },
    dispose() {
      disposed = true;
      for (const id of [...removed.keys()]) forget(id);
      for (const id of [...running.keys()]) stop(id);
      events.clear();
      registrations.flush();
    },
  };
}
