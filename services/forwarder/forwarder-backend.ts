/**
 * Where a forwarder keeps its state: the webhooks, who is registered, and each listener's messages until
 * it acknowledges them. In this process's memory (memory-backend.ts: the default, one instance), or in
 * Redis (redis/redis-backend.ts: durable, shared by any number of instances). The intake and the listener
 * channel are the same over both; routing always reads an index in memory (`registry`). The two helpers
 * at the end are what both backends do alike.
 */
import type { WebSocket } from 'ws';
import type { RawWebhookMessage, TapEvent, WebhookMessage } from '../../common/webhook-protocol';
import type { ListenerRegistry, ListenerSlot, Refused, Registration } from './listener-registry';
import type { Received } from './message-frame';
import type { WebhookRecord, WebhookStore } from './webhook-store';

/** What a tap event says about an intake besides the request itself. */
export type IntakeSummary = Pick<TapEvent, 'method' | 'size' | 'routing' | 'rejected'>;

/** Shows an intake to the taps of the webhook open on this instance (listener-channel.ts). */
export type TapLocally = (webhookId: string, message: RawWebhookMessage, summary: IntakeSummary) => void;

export interface Opened {
  slot: ListenerSlot;
  /** Messages waiting for the listener (`resumed` in its `registered` frame). */
  waiting: number;
}

export interface ForwarderBackend {
  readonly store: WebhookStore;
  /** Who is registered, indexed for routing (listener-registry.ts). */
  readonly registry: ListenerRegistry;
  /** Brings reads here up to date with every write made before (with Redis, by any instance: a webhook just created elsewhere). */
  sync(): void | Promise<void>;
  /** Whether intake can be stored now (with Redis: it answers, and this instance's copy is loaded). */
  ready(): boolean;
  /**
   * Registers a listener connected on `socket` (a new slot within the caps, or a reconnect) and prepares
   * its resume: what it says it has (up to `resumeAfter`) is dropped, everything else waits to be sent
   * again, in order. Then the channel sets `slot.socket` and calls `pump`.
   */
  open(
    webhook: WebhookRecord,
    listenerId: string,
    registration: Registration,
    resumeAfter: string | undefined,
    socket: WebSocket,
  ): Opened | Refused | Promise<Opened | Refused>;
  /** Sends what waits for the slot, as far as its socket takes. */
  pump(slot: ListenerSlot): void;
  acknowledge(slot: ListenerSlot, id: string): void;
  /** The slot's listener closed `socket`, its current connection: its messages wait for it, for a while. */
  away(slot: ListenerSlot, socket: WebSocket): void;
  /**
   * Stores an accepted intake for each target (each listener gets it, or `rawBodyOnly` ones without the
   * parsed body) and shows it to the webhook's taps; resolves with its id once stored, so the 202 promises it.
   */
  accept(webhookId: string, received: Received, targets: readonly ListenerSlot[], summary: IntakeSummary): string | Promise<string>;
  /** Whether a tap of the webhook is open (with Redis: on any instance, as this instance last heard). */
  tapped(webhookId: string): boolean;
  /** Shows a refused intake to the webhook's taps; asked only when `tapped`, so a flood of refusals costs nothing while none is open. */
  refused(webhookId: string, message: Omit<RawWebhookMessage, 'id'>, summary: IntakeSummary): void;
  /** A tap of the webhook opened on this instance; intakes reach it once this resolves. */
  tapOpened(webhookId: string, socket: WebSocket): void | Promise<void>;
  tapClosed(webhookId: string, socket: WebSocket): void;
  /** Messages and bytes waiting for listeners (all instances'), for /metrics. */
  pending(): { messages: number; bytes: number } | Promise<{ messages: number; bytes: number }>;
  /** Bytes of waiting messages held in this process's memory (memory-size.ts): the flood tests' bound. */
  bytesInMemory(): number;
  close(): Promise<void>;
}

/** Drops are logged the first time, then once per hundred (a listener away for long drops many). */
export function worthReporting(droppedBefore: number, droppedNow: number): boolean {
  return droppedBefore === 0 || Math.floor(droppedBefore / 100) < Math.floor(droppedNow / 100);
}

export function withoutBody({ body: _body, ...message }: WebhookMessage): RawWebhookMessage {
  return message;
}
