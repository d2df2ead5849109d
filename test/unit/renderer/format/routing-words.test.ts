import { describe, expect, it } from 'vitest';
import { decisionSentence, matchedWords, type RoutingNames, routingWords } from '../../../../renderer/src/format/routing-words';

const HUBS: Record<string, string> = { 'hub-home': 'Home', 'hub-cabin': 'Holiday cabin' };
const hubName = (id: string) => HUBS[id];
/** This app registered as the hub Home, or by key values, or not at all (an imported message). */
const asHome: RoutingNames = { ownRouting: { kind: 'hub', hubId: 'hub-home' }, hubName };
const byKeys: RoutingNames = { ownRouting: { kind: 'keys', values: ['lamp-1'] }, hubName };
const unregistered: RoutingNames = { ownRouting: undefined, hubName };

const keyPath = (value: unknown, matched: { listenerId: string; hubId?: string }[], reason?: string) => ({
  option: 'key-path' as const,
  keyPath: 'body.device.id',
  ...(value !== undefined && { value }),
  matched,
  ...(reason !== undefined && { reason }),
});
const entry = (
  routing: ReturnType<typeof keyPath> | { option: 'query' | 'legacy' | 'none'; matched: { listenerId: string; hubId?: string }[]; reason?: string } | null,
  delivered = false,
  awaitingDelivery = false,
) => ({
  routing,
  delivered,
  awaitingDelivery,
});

describe('routing words: whom a message went to, in names', () => {
  it('names this app by the hub it registered as, never by its listener id', () => {
    const words = routingWords(entry({ option: 'query', matched: [{ listenerId: 'hubdesk-7f50a1', hubId: 'hub-home' }] }, true), asHome);
    expect(words).toBe('this app (Home)');
    expect(words).not.toContain('hubdesk-7f50');
  });

  it('names this app by the key value that matched when it registered by key values', () => {
    expect(routingWords(entry(keyPath('lamp-1', [{ listenerId: 'l-own' }]), true), byKeys)).toBe('this app (key lamp-1)');
    expect(routingWords(entry(keyPath(42, [{ listenerId: 'l-own' }]), true), byKeys)).toBe('this app (key 42)');
  });

  it('counts the hubs it cannot name, and names the ones the hub list knows', () => {
    const others = [{ listenerId: 'a', hubId: 'hub-x' }, { listenerId: 'b' }];
    expect(routingWords(entry(keyPath('lamp-1', others)), byKeys)).toBe('2 other hubs');
    expect(routingWords(entry(keyPath('lamp-1', [others[0]!])), byKeys)).toBe('1 other hub');
    expect(routingWords(entry(keyPath('lamp-1', [{ listenerId: 'c', hubId: 'hub-cabin' }, ...others])), byKeys)).toBe('Holiday cabin and 2 other hubs');
    // Two listeners of the same known hub: named once.
    expect(
      routingWords(
        entry(
          keyPath('x', [
            { listenerId: 'c', hubId: 'hub-cabin' },
            { listenerId: 'd', hubId: 'hub-cabin' },
          ]),
        ),
        byKeys,
      ),
    ).toBe('Holiday cabin');
  });

  it('puts this app first and leaves its own delivery out of the others', () => {
    const matched = [
      { listenerId: 'x', hubId: 'hub-x' },
      { listenerId: 'own', hubId: 'hub-home' },
      { listenerId: 'c', hubId: 'hub-cabin' },
      { listenerId: 'y' },
    ];
    expect(routingWords(entry({ option: 'legacy', matched }, true), asHome)).toBe('this app (Home), Holiday cabin and 2 other hubs');
    expect(matchedWords(entry({ option: 'legacy', matched }, true), asHome)).toBe('this app (Home), Holiday cabin and 2 other hubs');
  });

  it('says when this app is about to receive it', () => {
    expect(routingWords(entry(keyPath('lamp-1', [{ listenerId: 'own', hubId: 'hub-home' }]), false, true), asHome)).toBe('this app (Home, not received yet)');
    expect(routingWords(entry({ option: 'query', matched: [{ listenerId: 'own' }] }, false, true), unregistered)).toBe('this app (not received yet)');
  });

  it('says when the forwarder dropped it before this app received it', () => {
    const dropped = { ...entry(keyPath('lamp-1', [{ listenerId: 'own', hubId: 'hub-home' }])), droppedByForwarder: true as const };
    expect(routingWords(dropped, asHome)).toBe('this app (Home, dropped by the forwarder)');
  });

  it('says why no one received it', () => {
    expect(routingWords(entry(keyPath('x', [], 'no registration has $key "x"')), byKeys)).toBe('nothing: body.device.id = "x" matches no registration');
    expect(routingWords(entry(keyPath(5, [])), byKeys)).toBe('nothing: body.device.id = 5 matches no registration');
    expect(routingWords(entry(keyPath(undefined, [])), byKeys)).toBe('nothing: body.device.id has no value');
    expect(routingWords(entry({ option: 'query', matched: [] }), byKeys)).toBe('nothing: ?hub= matches no registration');
    expect(routingWords(entry({ option: 'legacy', matched: [] }), byKeys)).toBe('nothing: the legacy function chose no hub');
    expect(routingWords(entry({ option: 'none', matched: [], reason: 'the webhook has no routing' }), byKeys)).toBe('nothing: the webhook has no routing');
    expect(matchedWords(entry({ option: 'query', matched: [] }), byKeys)).toBeNull();
  });

  it('says when the decision was not seen, and when the forwarder refused the intake', () => {
    expect(routingWords(entry(null, true), asHome)).toBe('this app (Home); routing not seen');
    expect(routingWords(entry(null, true), byKeys)).toBe('this app; routing not seen');
    expect(routingWords(entry(null), asHome)).toBe('routing not seen');
    const refused = {
      ...entry({ option: 'none', matched: [] }),
      rejected: { status: 413, error: 'payload_too_large', reason: 'The body is larger than 262144 bytes.' },
    };
    expect(routingWords(refused, asHome)).toBe('refused: The body is larger than 262144 bytes.');
  });
});

describe('decisionSentence: the detail pane’s sentence, in the same names', () => {
  it('names whom it matched and why', () => {
    expect(decisionSentence(entry(keyPath('lamp-1', [{ listenerId: 'l1', hubId: 'hub-home' }]), true), asHome)).toBe(
      'Matched this app (Home) because body.device.id = "lamp-1".',
    );
    expect(decisionSentence(entry(keyPath('lamp-1', [{ listenerId: 'l1', hubId: 'hub-cabin' }])), byKeys)).toBe(
      'Matched Holiday cabin because body.device.id = "lamp-1".',
    );
    expect(decisionSentence(entry(keyPath('lamp-1', [{ listenerId: 'l1', hubId: 'hub-unknown' }])), byKeys)).toBe(
      'Matched 1 other hub because body.device.id = "lamp-1".',
    );
    expect(decisionSentence(entry({ option: 'query', matched: [{ listenerId: 'l', hubId: 'hub-home' }] }, true), asHome)).toBe(
      'Matched this app (Home) by ?hub=.',
    );
    expect(decisionSentence(entry({ option: 'legacy', matched: [{ listenerId: 'l' }] }), byKeys)).toBe('Matched 1 other hub, chosen by the legacy function.');
  });

  it('says why nothing matched, with the forwarder’s reason', () => {
    expect(decisionSentence(entry(keyPath(42, [], 'no registration has $key "42"')), byKeys)).toBe(
      'Matched nothing: body.device.id = 42. No registration has $key "42".',
    );
    expect(decisionSentence(entry({ option: 'query', matched: [], reason: 'no listener registered for hub "x"' }), byKeys)).toBe(
      'Matched nothing by ?hub=. No listener registered for hub "x".',
    );
    expect(decisionSentence(entry({ option: 'none', matched: [], reason: 'not configured' }), byKeys)).toBe('Not routed. Not configured.');
    const refused = {
      ...entry({ option: 'none', matched: [] }),
      rejected: { status: 413, error: 'payload_too_large', reason: 'The request body is larger than 262144 bytes.' },
    };
    expect(decisionSentence(refused, byKeys)).toBe('The forwarder refused it with 413 (payload_too_large): The request body is larger than 262144 bytes.');
    expect(decisionSentence(entry(null, true), byKeys)).toBe('Delivered to this app; the routing decision was not seen (the tap was not open).');
  });
});
