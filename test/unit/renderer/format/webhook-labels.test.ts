import { describe, expect, it } from 'vitest';
import { connectionLabel, formatSize, parseKeyValues, rawBodyText, routingLabel, routingSummary } from '../../../../renderer/src/format/webhook-labels';

describe('webhook labels', () => {
  it('parses comma-separated key values, keeping plain numbers as numbers', () => {
    expect(parseKeyValues(' lamp-1, 5 ,007, -2.5, 1e3, ,lamp-1, 12345678901234567')).toEqual(['lamp-1', 5, '007', -2.5, '1e3', '12345678901234567']);
    expect(parseKeyValues(' , ')).toEqual([]);
  });

  it('summarises routing decisions as the inspector list shows them', () => {
    const keyPath = { option: 'key-path' as const, keyPath: 'body.device.id', value: 'lamp-1', matched: [{ listenerId: 'l1' }] };
    const summary = (routing: Parameters<typeof routingSummary>[0]['routing'], delivered: boolean, awaitingDelivery = false) => routingSummary({ routing, delivered, awaitingDelivery });
    expect(summary(keyPath, true)).toBe('key path body.device.id = lamp-1 → delivered');
    expect(summary(keyPath, false)).toBe('key path body.device.id = lamp-1 → 1 listener');
    expect(summary(keyPath, false, true)).toBe('key path body.device.id = lamp-1 → this app (not received yet)');
    expect(summary({ ...keyPath, value: undefined, matched: [] }, false)).toBe('key path body.device.id = nothing → not forwarded');
    expect(summary({ ...keyPath, value: 5 }, false)).toBe('key path body.device.id = 5 → 1 listener');
    expect(summary({ option: 'query', matched: [] }, false)).toBe('query ?hub → not forwarded');
    expect(summary(null, true)).toBe('delivered (routing not seen)');
  });

  it('labels registrations and connections', () => {
    expect(routingLabel({ kind: 'keys', values: ['a', 5] })).toBe('Key values a, 5');
    expect(routingLabel({ kind: 'hub', hubId: 'h1' }, 'Home')).toBe('Hub Home');
    expect(connectionLabel({ state: 'reconnecting', attempt: 3, nextRetryAt: 4_500 }, 1_000)).toBe('Reconnecting (attempt 3, next try in 4 s)');
    expect(connectionLabel({ state: 'refused', reason: 'Wrong.' }, 0)).toBe('Refused: Wrong.');
  });

  it('formats sizes', () => {
    expect([formatSize(12), formatSize(2048), formatSize(3 * 1024 * 1024)]).toEqual(['12 B', '2.0 KB', '3.0 MB']);
  });

  it('shows the raw body as text when it is UTF-8, else as base64', () => {
    expect(rawBodyText(Buffer.from('{"é":1}').toString('base64'))).toEqual({ kind: 'text', text: '{"é":1}' });
    const binary = Buffer.from([0xff, 0xfe, 0x00]).toString('base64');
    expect(rawBodyText(binary)).toEqual({ kind: 'base64', text: binary });
    expect(rawBodyText('%%%')).toEqual({ kind: 'base64', text: '%%%' });
  });
});
