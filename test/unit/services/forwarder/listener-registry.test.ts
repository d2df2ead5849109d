import { describe, expect, it } from 'vitest';
import { ListenerRegistry, type ListenerSlot, type Refused } from '../../../../services/forwarder/listener-registry';

const registration = { hubId: undefined, data: undefined, keys: [] };
const alice1 = { id: 'wh_a1', ownerId: 'alice' };
const alice2 = { id: 'wh_a2', ownerId: 'alice' };
const bob = { id: 'wh_b', ownerId: 'bob' };

function slot(result: ListenerSlot | Refused): ListenerSlot {
  if ('refused' in result) throw new Error(result.refused);
  return result;
}

describe('ListenerRegistry caps', () => {
  it('refuses a new listener beyond the per-webhook cap with a sentence naming the count and the limit; a reconnect is not new', () => {
    const registry = new ListenerRegistry({ maxListenersPerWebhook: 2, maxListenersPerOwner: 10 });
    slot(registry.register(alice1, 'l1', registration));
    slot(registry.register(alice1, 'l2', registration));
    expect(registry.register(alice1, 'l3', registration)).toEqual({ refused: 'this webhook already has 2 listeners; the limit is 2' });
    expect('refused' in registry.register(alice1, 'l2', registration)).toBe(false);
    expect('refused' in registry.register(alice2, 'l3', registration)).toBe(false);
    expect(registry.size).toBe(3);
  });

  it('counts an owner across their webhooks, leaves other owners alone, and frees a place when a listener is forgotten', () => {
    const registry = new ListenerRegistry({ maxListenersPerWebhook: 10, maxListenersPerOwner: 3 });
    const first = slot(registry.register(alice1, 'l1', registration));
    slot(registry.register(alice1, 'l2', registration));
    slot(registry.register(alice2, 'l1', registration));
    expect(registry.register(alice2, 'l2', registration)).toEqual({ refused: "this webhook's owner already has 3 listeners; the limit is 3" });
    expect('refused' in registry.register(bob, 'l1', registration)).toBe(false);
    registry.forget(first);
    expect('refused' in registry.register(alice2, 'l2', registration)).toBe(false);
  });
});
