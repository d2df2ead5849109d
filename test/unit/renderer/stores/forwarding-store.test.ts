import { describe, expect, it } from 'vitest';
import { createForwardingStore } from '../../../../renderer/src/stores/forwarding-store';
import { forwardChip, forwardQueueLabel, forwardSentence } from '../../../../renderer/src/format/forward-labels';
import { flush, ok } from '../fake-bridge';
import { fakeWebhooksBridge } from '../fake-webhooks-bridge';

const report = (id: string, forward: unknown, queue = { queued: 0, dropped: 0 }, webhookId = 'wh1') => ({ webhookId, id, forward, queue });

describe('forwarding store', () => {
  it('keeps each message’s latest forwarding and each registration’s queue', () => {
    const fake = fakeWebhooksBridge();
    const store = createForwardingStore(fake.bridge);
    fake.emit('webhooks.forward', report('m1', { state: 'sending', attempt: 1 }, { queued: 1, dropped: 0 }));
    fake.emit('webhooks.forward', report('m1', { state: 'answered', statusCode: 204, durationMs: 12, attempts: 1, at: 0 }, { queued: 0, dropped: 3 }));
    expect(store.getState().states.get('wh1/m1')).toEqual({ state: 'answered', statusCode: 204, durationMs: 12, attempts: 1, at: 0 });
    expect(store.getState().queues).toEqual({ wh1: { queued: 0, dropped: 3 } });
    // A malformed report never reaches the store (the bridge checks it against the contract).
    fake.emit('webhooks.forward', report('m2', { state: 'answered' }));
    expect(store.getState().states.has('wh1/m2')).toBe(false);
    store.dispose();
    expect(fake.listenerCount()).toBe(0);
  });

  it('remembers at most its capacity, forgetting the one reported longest ago', () => {
    const fake = fakeWebhooksBridge();
    const store = createForwardingStore(fake.bridge, 2);
    fake.emit('webhooks.forward', report('m1', { state: 'queued' }));
    fake.emit('webhooks.forward', report('m2', { state: 'queued' }));
    fake.emit('webhooks.forward', report('m1', { state: 'sending', attempt: 1 }));
    fake.emit('webhooks.forward', report('m3', { state: 'queued' }));
    expect([...store.getState().states.keys()]).toEqual(['wh1/m1', 'wh1/m3']);
  });

  it('asks main to forward a message again, and keeps its refusal by message', async () => {
    const fake = fakeWebhooksBridge();
    const store = createForwardingStore(fake.bridge);
    const asked = store.getState().forwardAgain('wh1', 'm1');
    const [call] = fake.waiting('webhooks.forwardAgain');
    expect(call!.args).toEqual(['wh1', 'm1']);
    call!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'This webhook has no Forward-to URL; set one with Edit.' } });
    await asked;
    expect(store.getState().errors['wh1/m1']?.message).toMatch(/no Forward-to URL/);
    const again = store.getState().forwardAgain('wh1', 'm1');
    expect(store.getState().errors['wh1/m1']).toBeUndefined();
    fake.waiting('webhooks.forwardAgain')[0]!.resolve(ok(undefined));
    await again;
    await flush();
    expect(store.getState().errors).toEqual({});
  });
});

describe('forward labels', () => {
  it('says the status and time in a row, and what happens in the detail pane', () => {
    expect(forwardChip({ state: 'answered', statusCode: 204, durationMs: 12.4, attempts: 1, at: 0 })).toBe('→ 204 · 12 ms');
    expect(forwardChip({ state: 'retrying', attempt: 1, nextAt: 0, last: '500' })).toBe('→ 500 · retrying');
    expect(forwardChip({ state: 'retrying', attempt: 1, nextAt: 0, last: 'Couldn’t send it to …: connection refused.' })).toBe('→ no answer · retrying');
    expect(forwardChip({ state: 'failed', statusCode: 503, reason: 'x', attempts: 5, at: 0 })).toBe('→ 503 · gave up');
    expect(forwardSentence({ state: 'retrying', attempt: 2, nextAt: 10_500, last: '500' }, 8_000)).toBe('Attempt 2 failed (500); trying again in 3 s.');
    expect(forwardSentence({ state: 'failed', reason: 'No answer within 10 s.', attempts: 5, at: 0 }, 0)).toBe(
      'Not forwarded after 5 attempts: No answer within 10 s.',
    );
    expect(forwardQueueLabel({ queued: 0, dropped: 0 })).toBeNull();
    expect(forwardQueueLabel({ queued: 4, dropped: 2 })).toBe('4 waiting · 2 dropped (queue full)');
  });
});
