/**
 * The forwarder's state in Redis (forwarder-backend.ts), shared by every instance on the same Redis
 * (docs/services.md, "Running several instances on Redis").
 *
 * - An accepted intake is stored by one script (redis-scripts.ts INTAKE) before its 202: the shared
 *   sequence makes its id, and each target listener's stream gets its frame, within the same count and
 *   byte caps as in memory and a byte budget for all streams together. The script wakes the other
 *   instances the targets are connected to (pub/sub, WAKE_PREFIX + instance), which read the new entries
 *   with XRANGE from the last one they sent, and send them in order. A target connected here that has
 *   everything before the new entry is sent the frame at once, without a read.
 * - A listener registers on whichever instance it reaches: the REGISTER script makes this instance its
 *   owner (telling the previous one to close its connection), drops what the listener says it has
 *   (`resumeAfter`), and the stream is sent from its start. An ack deletes the entry (XDEL). Delivery is
 *   at least once: an ack lost with a connection means the message is sent again, with the same id.
 * - Instances keep an alive key; every instance sweeps now and then (idempotent): the listeners of an
 *   instance that is gone are away from then, and any listener away `forgetAfterMs` is forgotten. An
 *   instance swept while only busy takes its connected listeners back when it renews the key (ALIVE).
 * - Listener reads and the alive renewal use their own connection (`side`), never queued behind this
 *   instance's intake scripts.
 * - Taps: opening one adds it to the webhook's set in Redis; the INTAKE script says whether any is open,
 *   and then the event is published on the webhook's tap channel, which the instances with a tap of it
 *   open subscribe to. Each intake is published once, so each tap sees it once.
 */
import { randomBytes } from 'node:crypto';
import { ReplyError } from 'ioredis';
import type { WebSocket } from 'ws';
import type { Logger } from '../../../common/logger';
import { CLOSE_REPLACED, type DroppedNotice, type RawWebhookMessage } from '../../../common/webhook-protocol';
import { type ForwarderBackend, type IntakeSummary, type TapLocally, withoutBody, worthReporting } from '../forwarder-backend';
import { messageId, sequenceOf, timeText } from '../message-ids';
import { HIGH_WATER_BYTES, sendAllCorked, type TurnWriter } from '../socket-writer';
import { frameAround, type Received } from '../message-frame';
import { ALIVE_PREFIX, KEYS, slotKey, tapChannel, WAKE_PREFIX } from './redis-keys';
import type { SlotRecord } from './redis-mirror';
import { type IntakeToStore, parseQueueDrops, type QueueDrops, type StoredIntake } from './redis-scripts';
import type { RedisState } from './redis-state';
import { errorMessage } from '../../../common/error-message';

export interface RedisBackendOptions {
  /** Messages and bytes per listener stream, bytes of all streams (the same defaults as in memory). */
  countCap: number;
  byteCap: number;
  budget: number;
  maxListenersPerWebhook: number;
  maxListenersPerOwner: number;
  forgetAfterMs: number;
  sweepMs: number;
  tapLocally: TapLocally;
  writer: TurnWriter;
  logger: Logger;
  now: () => number;
}

/** Entries read from a stream at a time. */
const READ_COUNT = 256;
/** Redis forgets an instance this long after its last sign of life (it renews every third of it). */
const ALIVE_MS = 15_000;
const RETRY_MS = 250;
/** Acks wait this long to go to Redis together: fewer script runs, and an ack only has to arrive before a resume. */
const ACK_BATCH_MS = 10;
/**
 * Redis hangs (up, but not answering) when an intake script has waited this long with no intake script
 * answered meanwhile: the command connection is dropped, which fails every command waiting on it at once
 * (the intakes answer 503, nothing is queued or sent again), and ioredis connects again. Checked by one
 * timer, every quarter of it.
 */
export const STALL_MS = 2_000;
/** Bounds a script's arguments (each intake adds six and one per target). */
const MAX_INTAKES_PER_SCRIPT = 100;
/**
 * Bounds the frames one script carries: Redis runs a script alone, so 100 intakes of 256 KiB bodies
 * (60 MB of frames) held every other client — other instances' reads, wake-ups and renewals — for as long
 * as it took to write them (docs/services.md, "Delivery across instances").
 */
const MAX_SCRIPT_BYTES = 4 * 1024 * 1024;

/** The `dropped` frame of a queue's drops so far. */
const noticeOf = (drops: QueueDrops): DroppedNotice => ({ type: 'dropped', through: drops.through, count: drops.count });

/** A listener connected to this instance, and how far its stream has been sent. */
interface Connected {
  readonly key: string;
  readonly socket: WebSocket;
  /** The last entry sent on this connection ('0-0': none yet). */
  lastSent: string;
  reading: boolean;
  /** Asked to read again while a read was under way. */
  more: boolean;
  /** Stopped at the socket's high-water mark: an ack reads on. */
  blocked: boolean;
  /** Frames taken for the listener, written at the end of the turn. */
  outbox: string[];
  /** The listener asked for `dropped` notices. */
  readonly dropNotices: boolean;
  /** A `dropped` notice owed to it, written before the outbox's frames. */
  owedNotice: DroppedNotice | undefined;
}

interface PublishedTap {
  message: RawWebhookMessage;
  summary: IntakeSummary;
}

export function createRedisBackend(state: RedisState, options: RedisBackendOptions): ForwarderBackend {
  const { redis, side, subscriber, scripts, sideScripts, mirror, instance } = state;
  const { logger, now, writer } = options;
  const connected = new Map<string, Connected>();
  const tapIds = new Map<WebSocket, string>();
  /** Open taps here, per webhook: its tap channel is subscribed while there is one. */
  const tapsHere = new Map<string, number>();
  let readsFailing = false;
  let closed = false;

  /** Full: nothing more is taken for the listener until acks make room (its messages wait in Redis). */
  const full = (listener: Connected) => listener.socket.bufferedAmount > HIGH_WATER_BYTES;

  const flushOutbox = (listener: Connected) => {
    const frames = listener.outbox;
    listener.outbox = [];
    if (listener.owedNotice) {
      frames.unshift(JSON.stringify(listener.owedNotice));
      listener.owedNotice = undefined;
    }
    sendAllCorked(listener.socket, frames);
    if (full(listener)) listener.blocked = true;
  };
  /** Queues a frame for the end of this turn (socket-writer.ts); it counts as sent from now on. */
  const sendSoon = (listener: Connected, frame: string, entry: string) => {
    listener.outbox.push(frame);
    listener.lastSent = entry;
    writer.soon(listener, flushOutbox);
  };

  /** Tells the listener (if it asked) of its queue's drops, at the end of the turn (docs/webhooks-app.md, "Dropped by the forwarder"). */
  const oweNotice = (listener: Connected, drops: QueueDrops) => {
    if (!listener.dropNotices) return;
    listener.owedNotice = noticeOf(drops);
    writer.soon(listener, flushOutbox);
  };

  const read = async (listener: Connected): Promise<void> => {
    if (listener.reading) {
      listener.more = true;
      return;
    }
    listener.reading = true;
    listener.blocked = false;
    try {
      do {
        listener.more = false;
        if (closed || connected.get(listener.key) !== listener) return;
        if (full(listener)) return void (listener.blocked = true);
        const entries = (await side.xrange(listener.key, `(${listener.lastSent}`, '+', 'COUNT', READ_COUNT)) as Array<[string, string[]]>;
        for (const [entry, fields] of entries) sendSoon(listener, fields[1]!, entry);
        if (entries.length === READ_COUNT) listener.more = true;
      } while (listener.more);
      readsFailing = false;
    } catch (error) {
      // Redis away: read again a little later (the messages wait in Redis). Logged once per outage, not per listener and try.
      if (!readsFailing) logger.warn('forwarder: listener streams cannot be read; retrying', { error: errorMessage(error) });
      readsFailing = true;
      setTimeout(() => void read(listener), RETRY_MS).unref();
    } finally {
      listener.reading = false;
    }
  };

  /** Acks of one turn go to Redis together, one script per listener. */
  const acking = new Map<string, string[]>();
  const sendAcks = () => {
    for (const [key, entries] of acking) scripts.acknowledge(key, entries).catch(() => {});
    acking.clear();
  };

  const onWake = (_channel: string, text: string) => {
    for (const key of text.split('\n')) {
      if (key.startsWith('?')) {
        // '?<count> <id> <queue>': the queue of a listener here lost messages in another instance's intake.
        const [, drops, queue] = /^\?(\d+ \S+) (.+)$/s.exec(key) ?? [];
        const listener = queue === undefined ? undefined : connected.get(queue);
        const parsed = drops === undefined ? undefined : parseQueueDrops(drops);
        if (listener && parsed) oweNotice(listener, parsed);
      } else if (key.startsWith('!')) {
        // The listener registered on another instance since: this connection is the older one.
        const listener = connected.get(key.slice(1));
        if (listener) {
          connected.delete(listener.key);
          listener.socket.close(CLOSE_REPLACED, 'replaced by a newer connection');
        }
      } else {
        const listener = connected.get(key);
        if (listener) void read(listener);
      }
    }
  };
  const onTapEvent = (channel: string, text: string) => {
    const published = parsePublishedTap(text);
    if (published) options.tapLocally(channel.slice(tapChannel('').length), published.message, published.summary);
  };
  subscriber.on('message', (channel: string, text: string) => (channel.startsWith(WAKE_PREFIX) ? onWake(channel, text) : onTapEvent(channel, text)));
  // Wake-ups published while the subscriber was reconnecting are lost: every listener here reads again.
  subscriber.on('ready', () => {
    for (const listener of connected.values()) void read(listener);
  });
  // Subscribed again by each registration (idempotent, one round trip): a first subscribe lost with Redis is made up for.
  const subscribeWakes = () => subscriber.subscribe(WAKE_PREFIX + instance);
  void subscribeWakes().catch(() => {});
  /** Slots whose release Redis missed (it was away): released again with the next sweep, so they are forgotten in time. */
  const unreleased = new Set<string>();
  const release = (key: string, at: number) =>
    scripts.release(key, instance, at).then(
      () => unreleased.delete(key),
      () => unreleased.add(key),
    );

  // On `side`, so a renewal never waits behind a flood's intake scripts; the listeners a sweep took while
  // this instance was late are taken back and read (docs/services.md, "Delivery across instances").
  const beAlive = () =>
    sideScripts.alive(instance, ALIVE_MS, [...connected.keys()]).then(
      (reclaimed) => {
        if (reclaimed.length > 0)
          logger.warn('forwarder: this instance was swept as gone while alive; its listeners are taken back', { listeners: reclaimed.length });
        for (const key of reclaimed) {
          const listener = connected.get(key);
          if (listener) void read(listener);
        }
      },
      () => {},
    );
  void beAlive();
  const aliveTimer = setInterval(() => void beAlive(), ALIVE_MS / 3); // beAlive handles its own failure: the next beat tries again
  aliveTimer.unref();
  const sweepTimer = setInterval(() => {
    for (const key of unreleased) if (!connected.has(key)) void release(key, now());
    scripts.sweep(now(), options.forgetAfterMs).then(
      (forgotten) => forgotten > 0 && logger.info('forwarder: listeners away too long forgotten', { forgotten }),
      () => {},
    );
  }, options.sweepMs);
  sweepTimer.unref();

  /** Queues that lost messages in an intake script: logged (rate-limited), and their listeners here told. */
  const reportLost = (lost: ReadonlyArray<{ queue: string; now: number; drops: QueueDrops }>) => {
    for (const { queue, now: count, drops } of lost) {
      if (worthReporting(drops.count - count, drops.count))
        logger.warn('forwarder: a listener stream is over its caps or the budget; oldest messages dropped', { slot: queue, dropped: drops.count });
      const listener = connected.get(queue);
      if (listener) oweNotice(listener, drops);
    }
  };

  /** Sends a stored intake's frame at once to each target connected here that has everything before it; the others read. */
  const sendStored = ({ queues, forms, formOf }: IntakeToStore, { id, before }: StoredIntake) => {
    const entry = `${sequenceOf(id)}-0`;
    queues.forEach((key, i) => {
      const listener = connected.get(key);
      if (!listener) return;
      if (!listener.reading && !listener.blocked && !full(listener) && (before[i] === '' || before[i] === listener.lastSent)) {
        const [prefix, suffix] = forms[formOf[i]! - 1]!;
        sendSoon(listener, prefix + id + suffix, entry);
      } else void read(listener);
    });
  };

  /**
   * The intakes of one turn go to Redis in one script (at most MAX_INTAKES_PER_SCRIPT each), in order:
   * one script run and one round trip for many requests under load, as soon as the turn ends when alone.
   */
  type ToStore = { intake: IntakeToStore; stored: (result: StoredIntake) => void; failed: (error: unknown) => void };
  let toStore: ToStore[] = [];
  /** The intake scripts sent and not yet answered, and when each was sent (oldest first). */
  const unanswered = new Map<ToStore[], number>();
  /**
   * Intakes are being answered 503 for want of Redis (an intake script stalled, or failed other than by
   * Redis's own error reply): not ready from then on, so `/readyz` says so from the first such 503, not
   * once ioredis has noticed (a stalled connection stays `ready` until its socket is destroyed, 2 s
   * later: `disconnectTimeout`). Ready again once the command connection is (a new connection that
   * answered its ready check) or an intake is stored. An error reply (e.g. OOM under `noeviction`) does
   * not count: Redis answers, every instance would be as unready, and a balancer could do nothing
   * (docs/services.md, "Running several instances on Redis", readiness).
   */
  let unreachable = false;
  redis.on('ready', () => (unreachable = false));
  /** When Redis last answered an intake script: a Redis that answers is busy, not hung. */
  let lastAnswer = 0;
  const storeIntakes = () => {
    const batch = toStore;
    toStore = [];
    for (const part of scriptParts(batch, ({ intake }) => intakeBytes(intake), { items: MAX_INTAKES_PER_SCRIPT, bytes: MAX_SCRIPT_BYTES })) {
      const caps = { instance, time: timeText(now()), countCap: options.countCap, byteCap: options.byteCap, budget: options.budget };
      unanswered.set(part, performance.now());
      scripts
        .intake(
          part.map(({ intake }) => intake),
          caps,
        )
        .then(
          ({ stored, lost }) => {
            lastAnswer = performance.now();
            if (!unanswered.delete(part)) return; // already failed as stalled: its requests were answered 503
            unreachable = false;
            if (lost.length > 0) reportLost(lost);
            part.forEach(({ stored: done }, i) => done(stored[i]!));
            // The frames of a script's intakes leave as its reply is handled, one write per listener, not at
            // the end of a turn that may hold other requests and acks (docs/benchmarks.md, "Redis-mode latency, 2026-11-28").
            writer.flush();
          },
          (error: unknown) => {
            if (!unanswered.delete(part)) return;
            if (!(error instanceof ReplyError)) unreachable = true;
            part.forEach(({ failed }) => failed(error));
          },
        );
    }
  };
  // One timer for all intakes rather than ioredis's commandTimeout, which arms a timer per command: that
  // cost about 3 ms of the p99 latency at 1,000 requests/s (docs/benchmarks.md, the forwarder on Redis).
  const stallTimer = setInterval(() => {
    const oldest = unanswered.values().next().value;
    // Hung: nothing answered for STALL_MS while an intake waits. An intake that waits longer behind others
    // Redis is answering (a flood's scripts, in order on one connection) is not a hang: failing it would
    // answer 503 for what Redis is storing, and cut the connection the others wait on.
    if (oldest === undefined || performance.now() - Math.max(oldest, lastAnswer) < STALL_MS) return;
    logger.warn('forwarder: Redis did not answer an intake in time; reconnecting', { waitedMs: Math.round(performance.now() - oldest) });
    const stalled = [...unanswered.keys()];
    unanswered.clear();
    unreachable = true;
    const error = new Error('Redis did not answer in time');
    for (const part of stalled) for (const { failed } of part) failed(error);
    redis.disconnect(true);
  }, STALL_MS / 4);
  stallTimer.unref();

  const publishTap = (webhookId: string, message: RawWebhookMessage, summary: IntakeSummary) =>
    redis.publish(tapChannel(webhookId), JSON.stringify({ message, summary } satisfies PublishedTap)).catch((error: unknown) => {
      logger.warn('forwarder: a tap event could not be published', { webhookId, error: errorMessage(error) });
    });

  return {
    store: state.store,
    registry: mirror.registry,
    sync: () => mirror.sync(),
    ready: () => !unreachable && state.ready(),
    async open(webhook, listenerId, registration, resumeAfter, socket) {
      await subscribeWakes();
      const key = slotKey(webhook.id, listenerId);
      unreleased.delete(key);
      // Registered here before Redis knows: a wake-up that arrives first waits for the read below.
      const listener: Connected = {
        key,
        socket,
        lastSent: '0-0',
        reading: true,
        more: false,
        blocked: false,
        outbox: [],
        dropNotices: registration.dropNotices ?? false,
        owedNotice: undefined,
      };
      const previous = connected.get(key);
      connected.set(key, listener);
      const release = () => {
        if (connected.get(key) === listener) connected.delete(key);
        if (previous && connected.get(key) === undefined) connected.set(key, previous);
      };
      const record: SlotRecord = {
        webhookId: webhook.id,
        ownerId: webhook.ownerId,
        listenerId,
        hubId: registration.hubId,
        data: registration.data,
        keys: [...registration.keys],
        rawBodyOnly: registration.rawBodyOnly ?? false,
      };
      const sequence = resumeAfter === undefined ? undefined : sequenceOf(resumeAfter);
      try {
        const registered = await scripts.register(key, {
          record: JSON.stringify(record),
          webhookId: webhook.id,
          ownerId: webhook.ownerId,
          maxPerWebhook: options.maxListenersPerWebhook,
          maxPerOwner: options.maxListenersPerOwner,
          instance,
          resumeAfterEntry: sequence === undefined ? undefined : `${sequence}-0`,
        });
        if ('refused' in registered) {
          release();
          return registered;
        }
        await mirror.caughtUp(registered.version);
        const slot = mirror.registry.of(webhook.id)?.slots.get(listenerId);
        if (!slot) throw new Error('the registration is not in the mirror');
        listener.reading = false;
        // Drops past what the listener says it has are owed to it, sent once it is told it is registered (pump).
        const { drops } = registered;
        if (drops && listener.dropNotices && (sequence === undefined || (sequenceOf(drops.through) ?? Infinity) > sequence))
          listener.owedNotice = noticeOf(drops);
        return { slot, waiting: registered.waiting };
      } catch (error) {
        release();
        throw error;
      }
    },
    pump(slot) {
      const listener = connected.get(slotKey(slot.webhookId, slot.listenerId));
      if (!listener) return;
      if (listener.owedNotice) writer.soon(listener, flushOutbox);
      void read(listener);
    },
    acknowledge(slot, id) {
      const sequence = sequenceOf(id);
      if (sequence === undefined) return;
      const key = slotKey(slot.webhookId, slot.listenerId);
      // A lost ack (Redis away) only means the message is sent again: at least once.
      const entries = acking.get(key);
      if (entries) entries.push(`${sequence}-0`);
      else {
        acking.set(key, [`${sequence}-0`]);
        if (acking.size === 1) setTimeout(sendAcks, ACK_BATCH_MS).unref();
      }
      const listener = connected.get(key);
      if (listener?.blocked) void read(listener);
    },
    away(slot, socket) {
      const key = slotKey(slot.webhookId, slot.listenerId);
      const current = connected.get(key);
      // A newer connection here has the slot: it is not away.
      if (current && current.socket !== socket) return;
      connected.delete(key);
      // Only if this instance still owns it (a newer connection elsewhere may); a release Redis missed is made again with the next sweep.
      void release(key, now());
    },
    accept(webhookId, received, targets, summary) {
      const message = { id: '', ...received.message };
      const forms: [[string, string], [string, string]] = [
        targets.some((slot) => !slot.rawBodyOnly) ? aroundIdText(received, true) : ['', ''],
        targets.some((slot) => slot.rawBodyOnly) ? aroundIdText(received, false) : ['', ''],
      ];
      const intake: IntakeToStore = {
        webhookId,
        queues: targets.map((slot) => slotKey(slot.webhookId, slot.listenerId)),
        forms,
        formOf: targets.map((slot): 1 | 2 => (slot.rawBodyOnly ? 2 : 1)),
      };
      return new Promise<string>((resolve, reject) => {
        const stored = (result: StoredIntake) => {
          sendStored(intake, result);
          if (result.tapped) void publishTap(webhookId, withoutBody({ ...message, id: result.id }), summary);
          resolve(result.id);
        };
        toStore.push({ intake, stored, failed: reject });
        if (toStore.length === 1) setImmediate(storeIntakes);
      });
    },
    tapped: (webhookId) => mirror.tapped(webhookId),
    refused(webhookId, message, summary) {
      // A refusal has no stored message, but its id comes from the same sequence: unique across instances.
      redis.incr(KEYS.sequence).then(
        (sequence) => publishTap(webhookId, { id: messageId(now(), sequence), ...message }, summary),
        () => {},
      );
    },
    async tapOpened(webhookId, socket) {
      const tapId = `${instance}/${randomBytes(6).toString('hex')}`;
      tapIds.set(socket, tapId);
      const open = tapsHere.get(webhookId) ?? 0;
      tapsHere.set(webhookId, open + 1);
      try {
        if (open === 0) await subscriber.subscribe(tapChannel(webhookId));
        // Registered once this instance's mirror counts the tap: the next intake here is tapped (and published).
        await mirror.caughtUp(await scripts.tap(webhookId, tapId, true));
      } catch (error) {
        tapIds.delete(socket);
        untap(webhookId);
        throw error;
      }
    },
    tapClosed(webhookId, socket) {
      const tapId = tapIds.get(socket);
      if (tapId === undefined) return;
      tapIds.delete(socket);
      untap(webhookId);
      scripts.tap(webhookId, tapId, false).catch(() => {});
    },
    // While Redis does not answer, /metrics still answers: with NaN for what only Redis knows.
    pending: () => scripts.pending().catch(() => ({ messages: Number.NaN, bytes: Number.NaN })),
    bytesInMemory: () => 0,
    async close() {
      closed = true;
      clearInterval(aliveTimer);
      clearInterval(sweepTimer);
      clearInterval(stallTimer);
      // Gone at once rather than when the alive key runs out: other instances' sweeps make its listeners away.
      await redis.del(ALIVE_PREFIX + instance).catch(() => {});
    },
  };

  function untap(webhookId: string): void {
    const open = (tapsHere.get(webhookId) ?? 1) - 1;
    if (open > 0) return void tapsHere.set(webhookId, open);
    tapsHere.delete(webhookId);
    subscriber.unsubscribe(tapChannel(webhookId)).catch(() => {});
  }
}

/** The frame of `received` split where its id's text goes, inside its quotes: `{"type":"message","message":{"id":"` and the rest. */
export function aroundIdText(received: Received, withBody: boolean): [string, string] {
  const [before, after] = frameAround(received, withBody);
  return [`${before}"`, `"${after}`];
}

function parsePublishedTap(text: string): PublishedTap | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<PublishedTap>;
    return parsed && typeof parsed.message?.id === 'string' && typeof parsed.summary === 'object' && parsed.summary !== null
      ? (parsed as PublishedTap)
      : undefined;
  } catch {
    return undefined;
  }
}

/** About what an intake's frames weigh in Redis: each target's form (characters, as sent). */
function intakeBytes({ forms, formOf }: IntakeToStore): number {
  let bytes = 0;
  for (const form of formOf) bytes += forms[form - 1]![0].length + forms[form - 1]![1].length;
  return bytes;
}

/**
 * `items` cut, in order, into parts of at most `limits.items` items and `limits.bytes` bytes (an item
 * larger than that goes alone): the intake scripts of one turn.
 */
export function scriptParts<T>(items: readonly T[], bytesOf: (item: T) => number, limits: { items: number; bytes: number }): T[][] {
  const parts: T[][] = [];
  let part: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    if (part.length > 0 && (part.length === limits.items || bytes + size > limits.bytes)) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(item);
    bytes += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}
