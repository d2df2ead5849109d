import { describe, expect, it } from 'vitest';
import { createBackoff } from '../../../../main/core/backoff';
import { createWebhookInspector, MAIN_INSPECTOR_CAPACITY } from '../../../../main/core/webhook-inspector';
import { tapEvent, webhookMessage } from './fake-listen-server';

describe('main inspector ring', () => {
  it('keeps at most its capacity, dropping the oldest, newest first', () => {
    const inspector = createWebhookInspector(3);
    for (const id of ['a', 'b', 'c', 'd']) inspector.tapped('wh', tapEvent(id));
    expect(inspector.snapshot().map((entry) => entry.id)).toEqual(['d', 'c', 'b']);
  });

  it('defaults to 1000 entries', () => {
    const inspector = createWebhookInspector();
    for (let i = 0; i < MAIN_INSPECTOR_CAPACITY + 5; i++) inspector.delivered('wh', webhookMessage(`m${i}`));
    expect(MAIN_INSPECTOR_CAPACITY).toBe(1000);
    expect(inspector.snapshot()).toHaveLength(1000);
    expect(inspector.snapshot().at(-1)!.id).toBe('m5');
  });

  it('merges the delivery into the tap entry', () => {
    const inspector = createWebhookInspector();
    expect(inspector.tapped('wh', tapEvent('m1', 'l1'))).toMatchObject({ delivered: false, method: 'POST' });
    const merged = inspector.delivered('wh', webhookMessage('m1'));
    expect(merged).toMatchObject({ id: 'm1', delivered: true, method: 'POST', routing: { option: 'key-path', value: 'lamp-1' } });
    expect(inspector.snapshot()).toHaveLength(1);
  });

  it('merges a tap that arrives after the delivery, keeping delivered', () => {
    const inspector = createWebhookInspector();
    const early = inspector.delivered('wh', webhookMessage('m1'));
    expect(early).toMatchObject({ method: null, routing: null, delivered: true, size: JSON.stringify({ device: { id: 'lamp-1' } }).length });
    expect(inspector.tapped('wh', tapEvent('m1', 'l1'))).toMatchObject({ method: 'POST', delivered: true });
  });

  it('keeps the same message id of two webhooks apart; forget and clear remove entries', () => {
    const inspector = createWebhookInspector();
    inspector.tapped('wh1', tapEvent('m1'));
    inspector.tapped('wh2', tapEvent('m1'));
    expect(inspector.snapshot()).toHaveLength(2);
    inspector.forget('wh1');
    expect(inspector.snapshot().map((entry) => entry.webhookId)).toEqual(['wh2']);
    inspector.clear();
    expect(inspector.snapshot()).toEqual([]);
  });
});

describe('backoff', () => {
  it('doubles from 250 ms up to 30 s, with up to half of each step random', () => {
    const low = createBackoff(() => 0);
    const high = createBackoff(() => 1);
    const lows = Array.from({ length: 10 }, () => low.next());
    const highs = Array.from({ length: 10 }, () => high.next());
    expect(highs).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(lows).toEqual(highs.map((ms) => ms / 2));
    expect(high.attempts()).toBe(10);
  });
  it('starts over after reset', () => {
    const backoff = createBackoff(() => 1);
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.attempts()).toBe(0);
    expect(backoff.next()).toBe(250);
  });
});
