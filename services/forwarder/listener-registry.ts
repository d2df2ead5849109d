/**
 * Who is registered for each webhook, indexed the way routing asks: by hub id (routing option 1) and by
 * the canonical form of each `$key` / `$keys` value (option 2), so finding the receivers of a request is
 * one Map lookup whatever the number of registrations. A slot is a (webhook, listenerId) pair; it
 * outlives its socket (messages for an offline listener wait in its resume buffer) until it is forgotten.
 *
 * Slots are capped per webhook and per owner (docs/security.md, "Byte budgets"): each slot holds a resume buffer and its
 * registration, and slots outlive their sockets, so without caps one owner could hold any number.
 */
import type { WebSocket } from 'ws';
import type { RegistrationData } from '../../common/webhook-protocol';
import { ResumeBuffer } from './resume-buffer';
import type { ResumeBudget } from './resume-budget';

/**
 * 32 MiB of frames per listener (memory-size.ts: 16 Mi characters): with the 256 KiB body limit a frame
 * is at most ~0.6 Mi characters (the body parsed and as base64 raw bytes; ~0.35 Mi for a `rawBodyOnly`
 * listener, base64 alone), so at least 27 of the largest messages fit, and a thousand webhooks of a few KiB.
 */
export const DEFAULT_RESUME_BUFFER_BYTES = 32 * 1024 * 1024;
export const DEFAULT_RESUME_BUFFER_SIZE = 1000;
/** Far more than the hubs one webhook serves in practice (one listener per app and hub). */
export const DEFAULT_MAX_LISTENERS_PER_WEBHOOK = 100;
/** An owner's webhooks together; with the per-webhook cap it bounds what one account can hold. */
export const DEFAULT_MAX_LISTENERS_PER_OWNER = 200;

export interface RegistryOptions {
  /** Messages per resume buffer (default 1,000). */
  bufferCapacity?: number;
  /** Bytes of frames per resume buffer (default DEFAULT_RESUME_BUFFER_BYTES). */
  bufferBytes?: number;
  /** The forwarder-wide budget all buffers answer to; none: each buffer is bounded on its own only. */
  budget?: ResumeBudget;
  maxListenersPerWebhook?: number;
  maxListenersPerOwner?: number;
}

/** The webhook a listener registers for, as the registry needs it. */
export interface WebhookRef {
  readonly id: string;
  readonly ownerId: string;
}

export interface ListenerSlot {
  readonly webhookId: string;
  readonly ownerId: string;
  readonly listenerId: string;
  hubId: string | undefined;
  data: RegistrationData | undefined;
  /** Canonical `$key` / `$keys` values (canonicalKeyValue), deduplicated. */
  keys: readonly string[];
  /** The listener asked for messages without the parsed body (common/webhook-protocol.ts). */
  rawBodyOnly: boolean;
  /** The listener asked for `dropped` notices (common/webhook-protocol.ts). */
  dropNotices: boolean;
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
  /** False when left out. */
  rawBodyOnly?: boolean;
  /** False when left out. */
  dropNotices?: boolean;
}

/** An open tap: the tap credential it proved (revoking that credential closes it) and its client's own listeners. */
export interface TapRegistration {
  readonly credentialId: string;
  /** Intakes routed to any of these are tapped without their request: the client's listener receives it. */
  readonly ownListenerIds: ReadonlySet<string>;
}

/** One webhook's registrations. Read-only to routing. */
export class WebhookListeners {
  readonly slots = new Map<string, ListenerSlot>();
  readonly byHub = new Map<string, Map<string, ListenerSlot>>();
  readonly byKey = new Map<string, Map<string, ListenerSlot>>();
  readonly taps = new Map<WebSocket, TapRegistration>();

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

/** A registration the caps refused, with the sentence the listener is closed with. */
export interface Refused {
  refused: string;
}

export class ListenerRegistry {
  private readonly webhooks = new Map<string, WebhookListeners>();
  /** Slots per owner, across their webhooks. */
  private readonly ownerSlots = new Map<string, number>();
  private readonly bufferCapacity: number;
  private readonly bufferBytes: number;
  private readonly maxPerWebhook: number;
  private readonly maxPerOwner: number;
  private slotCount = 0;

  constructor(private readonly options: RegistryOptions = {}) {
    this.bufferCapacity = options.bufferCapacity ?? DEFAULT_RESUME_BUFFER_SIZE;
    this.bufferBytes = options.bufferBytes ?? DEFAULT_RESUME_BUFFER_BYTES;
    this.maxPerWebhook = options.maxListenersPerWebhook ?? DEFAULT_MAX_LISTENERS_PER_WEBHOOK;
    this.maxPerOwner = options.maxListenersPerOwner ?? DEFAULT_MAX_LISTENERS_PER_OWNER;
  }

  /** Listener slots held, connected or away. */
  get size(): number {
    return this.slotCount;
  }

  of(webhookId: string): WebhookListeners | undefined {
    return this.webhooks.get(webhookId);
  }

  /**
   * The slot for (webhook, listenerId), created or re-indexed with the new registration. A new slot
   * over either cap is refused; an existing one (a reconnect) never is.
   */
  register(webhook: WebhookRef, listenerId: string, registration: Registration): ListenerSlot | Refused {
    const listeners = this.webhooks.get(webhook.id);
    let slot = listeners?.slots.get(listenerId);
    if (!slot) {
      const refusal = this.overCap(webhook, listeners);
      if (refusal !== undefined) return { refused: refusal };
      slot = this.newSlot(webhook, listenerId);
    } else listeners!.unindex(slot);
    Object.assign(slot, registration, { rawBodyOnly: registration.rawBodyOnly ?? false, dropNotices: registration.dropNotices ?? false });
    this.listeners(webhook.id).index(slot);
    return slot;
  }

  forget(slot: ListenerSlot): void {
    const listeners = this.webhooks.get(slot.webhookId);
    if (!listeners || listeners.slots.get(slot.listenerId) !== slot) return;
    listeners.unindex(slot);
    listeners.slots.delete(slot.listenerId);
    slot.buffer.clear();
    this.slotCount--;
    const owned = (this.ownerSlots.get(slot.ownerId) ?? 1) - 1;
    if (owned === 0) this.ownerSlots.delete(slot.ownerId);
    else this.ownerSlots.set(slot.ownerId, owned);
    this.dropIfEmpty(slot.webhookId, listeners);
  }

  addTap(webhookId: string, socket: WebSocket, tap: TapRegistration): void {
    this.listeners(webhookId).taps.set(socket, tap);
  }

  /** The open taps of a webhook that were opened with the credential. */
  tapsOf(webhookId: string, credentialId: string): WebSocket[] {
    return [...(this.webhooks.get(webhookId)?.taps ?? [])].flatMap(([socket, tap]) => (tap.credentialId === credentialId ? [socket] : []));
  }

  removeTap(webhookId: string, socket: WebSocket): void {
    const listeners = this.webhooks.get(webhookId);
    if (!listeners) return;
    listeners.taps.delete(socket);
    this.dropIfEmpty(webhookId, listeners);
  }

  /** After a message was added to its targets' buffers: the forwarder-wide budget evicts what is over it; the slots that lost messages. */
  enforceBudget(): ListenerSlot[] {
    const evicted = this.options.budget?.enforce();
    if (!evicted || evicted.size === 0) return [];
    return [...evicted].flatMap((buffer) => {
      const slot = buffer.owner && this.of(buffer.owner.webhookId)?.slots.get(buffer.owner.listenerId);
      return slot ? [slot] : [];
    });
  }

  allSlots(): ListenerSlot[] {
    return [...this.webhooks.values()].flatMap((listeners) => [...listeners.slots.values()]);
  }

  private overCap(webhook: WebhookRef, listeners: WebhookListeners | undefined): string | undefined {
    const ofWebhook = listeners?.slots.size ?? 0;
    if (ofWebhook >= this.maxPerWebhook) return `this webhook already has ${ofWebhook} listeners; the limit is ${this.maxPerWebhook}`;
    const ofOwner = this.ownerSlots.get(webhook.ownerId) ?? 0;
    if (ofOwner >= this.maxPerOwner) return `this webhook's owner already has ${ofOwner} listeners; the limit is ${this.maxPerOwner}`;
    return undefined;
  }

  private newSlot(webhook: WebhookRef, listenerId: string): ListenerSlot {
    const owner = { webhookId: webhook.id, listenerId };
    const buffer = new ResumeBuffer(this.bufferCapacity, this.bufferBytes, this.options.budget, owner);
    const slot: ListenerSlot = {
      ...owner,
      ownerId: webhook.ownerId,
      hubId: undefined,
      data: undefined,
      keys: [],
      rawBodyOnly: false,
      dropNotices: false,
      buffer,
      socket: undefined,
      forgetTimer: undefined,
    };
    this.listeners(webhook.id).slots.set(listenerId, slot);
    this.ownerSlots.set(webhook.ownerId, (this.ownerSlots.get(webhook.ownerId) ?? 0) + 1);
    this.slotCount++;
    return slot;
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
