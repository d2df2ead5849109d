/**
 * Who is registered for each webhook, indexed the way routing asks: by hub id (routing option 1) and by
 * the canonical form of each `$key` / `$keys` value (option 2), so finding the receivers of a request is
 * one Map lookup whatever the number of registrations. A slot is a (webhook, listenerId) pair; it
 * outlives its socket (messages for an offline listener wait in its resume buffer) until it is forgotten.
 */
import type { WebSocket } from 'ws';
import type { RegistrationData } from '../../common/webhook-protocol';
import { ResumeBuffer } from './resume-buffer';

/**
 * 16 Mi characters of frames per listener (16–32 MB): with the 256 KiB body limit a frame is at most
 * ~0.6 Mi characters (the body parsed and as base64 raw bytes), so at least 27 of the largest messages
 * fit, and a thousand webhooks of a few KiB.
 */
export const DEFAULT_RESUME_BUFFER_CHARS = 16 * 1024 * 1024;

export interface ListenerSlot {
  readonly webhookId: string;
  readonly listenerId: string;
  hubId: string | undefined;
  data: RegistrationData | undefined;
  /** Canonical `$key` / `$keys` values (canonicalKeyValue), deduplicated. */
  keys: readonly string[];
  readonly buffer: ResumeBuffer;
  /** The current connection; undefined while the listener is away. */
  socket: WebSocket | undefined;
  /** Runs out when the listener stays away too long (see ListenerChannel). */
  forgetTimer: NodeJS.Timeout | undefined;
}

export interface Registration {
  hubId: string | undefined;
  data: RegistrationData | undefined;
  keys: readonly string[];
}

/** One webhook's registrations. Read-only to routing. */
export class WebhookListeners {
  readonly slots = new Map<string, ListenerSlot>();
  readonly byHub = new Map<string, Map<string, ListenerSlot>>();
  readonly byKey = new Map<string, Map<string, ListenerSlot>>();
  readonly taps = new Set<WebSocket>();

  index(slot: ListenerSlot): void {
    if (slot.hubId !== undefined) addTo(this.byHub, slot.hubId, slot);
    for (const key of slot.keys) addTo(this.byKey, key, slot);
  }

  unindex(slot: ListenerSlot): void {
    if (slot.hubId !== undefined) removeFrom(this.byHub, slot.hubId, slot);
    for (const key of slot.keys) removeFrom(this.byKey, key, slot);
  }

  get isEmpty(): boolean {
    return this.slots.size === 0 && this.taps.size === 0;
  }
}

export class ListenerRegistry {
  private readonly webhooks = new Map<string, WebhookListeners>();

  /** Each listener's resume buffer: at most `bufferCapacity` messages and `bufferChars` characters of frames. */
  constructor(
    private readonly bufferCapacity: number,
    private readonly bufferChars: number = DEFAULT_RESUME_BUFFER_CHARS,
  ) {}

  of(webhookId: string): WebhookListeners | undefined {
    return this.webhooks.get(webhookId);
  }

  /** The slot for (webhook, listenerId), created or re-indexed with the new registration. */
  register(webhookId: string, listenerId: string, registration: Registration): ListenerSlot {
    const listeners = this.listeners(webhookId);
    let slot = listeners.slots.get(listenerId);
    if (slot) listeners.unindex(slot);
    else {
      slot = { webhookId, listenerId, hubId: undefined, data: undefined, keys: [], buffer: new ResumeBuffer(this.bufferCapacity, this.bufferChars), socket: undefined, forgetTimer: undefined };
      listeners.slots.set(listenerId, slot);
    }
    Object.assign(slot, registration);
    listeners.index(slot);
    return slot;
  }

  forget(slot: ListenerSlot): void {
    const listeners = this.webhooks.get(slot.webhookId);
    if (!listeners || listeners.slots.get(slot.listenerId) !== slot) return;
    listeners.unindex(slot);
    listeners.slots.delete(slot.listenerId);
    this.dropIfEmpty(slot.webhookId, listeners);
  }

  addTap(webhookId: string, socket: WebSocket): void {
    this.listeners(webhookId).taps.add(socket);
  }

  removeTap(webhookId: string, socket: WebSocket): void {
    const listeners = this.webhooks.get(webhookId);
    if (!listeners) return;
    listeners.taps.delete(socket);
    this.dropIfEmpty(webhookId, listeners);
  }

  allSlots(): ListenerSlot[] {
    return [...this.webhooks.values()].flatMap((listeners) => [...listeners.slots.values()]);
  }

  private listeners(webhookId: string): WebhookListeners {
    let listeners = this.webhooks.get(webhookId);
    if (!listeners) {
      listeners = new WebhookListeners();
      this.webhooks.set(webhookId, listeners);
    }
    return listeners;
  }

  private dropIfEmpty(webhookId: string, listeners: WebhookListeners): void {
    if (listeners.isEmpty) this.webhooks.delete(webhookId);
  }
}

function addTo(index: Map<string, Map<string, ListenerSlot>>, key: string, slot: ListenerSlot): void {
  let slots = index.get(key);
  if (!slots) {
    slots = new Map();
    index.set(key, slots);
  }
  slots.set(slot.listenerId, slot);
}

function removeFrom(index: Map<string, Map<string, ListenerSlot>>, key: string, slot: ListenerSlot): void {
  const slots = index.get(key);
  if (!slots) return;
  slots.delete(slot.listenerId);
  if (slots.size === 0) index.delete(key);
}
