/**
 * The forwarder's state in this process's memory (forwarder-backend.ts): the default, for one instance.
 * Each listener slot's messages wait in its ResumeBuffer, every buffer answering to the forwarder-wide
 * ResumeBudget; ids come from this process's sequence (message-ids.ts). A listener that stays away
 * `forgetAfterMs` is forgotten with its buffer. Deliveries are written once per turn (socket-writer.ts).
 */
import type { WebSocket } from 'ws';
import type { WebhookMessage } from '../../common/webhook-protocol';
import type { Logger } from '../../common/logger';
import { type ForwarderBackend, type TapLocally, worthReporting } from './forwarder-backend';
import { frameAround, frameOf } from './message-frame';
import type { ListenerRegistry, ListenerSlot } from './listener-registry';
import type { MessageIds } from './message-ids';
import { sequenceOf } from './message-ids';
import type { QueuedMessage, ResumeBuffer } from './resume-buffer';
import type { EvictionReport, ResumeBudget } from './resume-budget';
import { sendCorked, type TurnWriter } from './socket-writer';
import type { WebhookStore } from './webhook-store';

export interface MemoryBackendOptions {
  store: WebhookStore;
  registry: ListenerRegistry;
  budget: ResumeBudget;
  ids: MessageIds;
  writer: TurnWriter;
  tapLocally: TapLocally;
  logger: Logger;
  forgetAfterMs: number;
}

export function createMemoryBackend(options: MemoryBackendOptions): ForwarderBackend {
  const { registry, budget, ids, writer, tapLocally, logger } = options;

  const pumpNow = (slot: ListenerSlot) => {
    const socket = slot.socket;
    if (!socket) return;
    sendCorked(socket, (write) => {
      // A notice of drops goes before the messages after them (docs/webhooks-app.md, "Dropped by the forwarder").
      const notice = slot.dropNotices ? slot.buffer.owedNotice() : undefined;
      if (notice && write(JSON.stringify(notice))) slot.buffer.noticeSent();
      slot.buffer.flush((message) => write(message.frame));
    });
  };
  const pump = (slot: ListenerSlot) => writer.soon(slot, pumpNow);

  return {
    store: options.store,
    registry,
    sync() {},
    ready: () => true,
    open(webhook, listenerId, registration, resumeAfter) {
      const slot = registry.register(webhook, listenerId, registration);
      if ('refused' in slot) return slot;
      clearTimeout(slot.forgetTimer);
      slot.forgetTimer = undefined;
      slot.buffer.rewind(resumeAfter === undefined ? undefined : sequenceOf(resumeAfter));
      return { slot, waiting: slot.buffer.size };
    },
    pump: pumpNow,
    acknowledge(slot, id) {
      slot.buffer.acknowledge(id);
      pump(slot);
    },
    away(slot: ListenerSlot, _socket: WebSocket) {
      clearTimeout(slot.forgetTimer);
      slot.forgetTimer = setTimeout(() => registry.forget(slot), options.forgetAfterMs);
      slot.forgetTimer.unref();
    },
    accept(webhookId, received, targets, summary) {
      const { id, sequence } = ids.next();
      const message: WebhookMessage = { id, ...received.message };
      if (targets.length > 0) {
        const queue = (withBody: boolean): QueuedMessage => ({ id, sequence, frame: frameOf(frameAround(received, withBody), id) });
        let withBody: QueuedMessage | undefined;
        let rawOnly: QueuedMessage | undefined;
        for (const slot of targets) {
          const queued = slot.rawBodyOnly ? (rawOnly ??= queue(false)) : (withBody ??= queue(true));
          const dropped = slot.buffer.add(queued);
          if (dropped > 0 && worthReporting(slot.buffer.dropped - dropped, slot.buffer.dropped)) {
            logger.warn('forwarder: resume buffer full, oldest messages dropped', {
              webhookId: slot.webhookId,
              listenerId: slot.listenerId,
              dropped: slot.buffer.dropped,
            });
          }
        }
        // Before anything is sent: what the budget evicts now is never written to a socket.
        const evicted = registry.enforceBudget();
        for (const slot of targets) pump(slot);
        for (const slot of evicted) pump(slot); // their listeners are owed a notice of it
      }
      tapLocally(webhookId, message, summary);
      return id;
    },
    tapped: (webhookId) => (registry.of(webhookId)?.taps.size ?? 0) > 0,
    refused(webhookId, message, summary) {
      tapLocally(webhookId, { id: ids.next().id, ...message }, summary);
    },
    tapOpened() {},
    tapClosed() {},
    pending: () => ({ messages: registry.allSlots().reduce((sum, slot) => sum + slot.buffer.size, 0), bytes: budget.bytes }),
    bytesInMemory: () => budget.bytes,
    async close() {
      for (const slot of registry.allSlots()) clearTimeout(slot.forgetTimer);
    },
  };
}

/** For the forwarder's ResumeBudget: logs evictions with the listener they hit, rate-limited like drops. */
export function logBudgetEvictions(logger: Logger, budgetBytes: number): EvictionReport {
  return (buffer: ResumeBuffer, evicted: number) => {
    if (!worthReporting(buffer.dropped - evicted, buffer.dropped)) return;
    logger.warn('forwarder: resume budget exceeded, oldest messages of the largest buffer evicted', {
      webhookId: buffer.owner?.webhookId,
      listenerId: buffer.owner?.listenerId,
      evicted,
      dropped: buffer.dropped,
      budgetBytes,
    });
  };
}
