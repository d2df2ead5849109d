/** common/first-message.ts: the URL a sender is given, and a request the registration receives. */
import { describe, expect, it } from 'vitest';
import { firstMessage, routedIntakeUrl } from '../../../common/first-message';
import { evaluateKeyPath, parseKeyPath } from '../../../common/key-path';

const INTAKE = 'http://127.0.0.1:5000/webhook/wh_1';

describe('routedIntakeUrl', () => {
  it('adds ?hub= for a hub, encoded, and nothing for key values', () => {
    expect(routedIntakeUrl(INTAKE, { kind: 'hub', hubId: 'hub 1&x' })).toBe(`${INTAKE}?hub=hub+1%26x`);
    expect(routedIntakeUrl(INTAKE, { kind: 'keys', values: ['a'] })).toBe(INTAKE);
  });
});

describe('firstMessage', () => {
  it('puts the first key value where the key path reads it, in the body', () => {
    for (const keyPath of ['body.device.id', 'body.items[2].id', 'body["a b"].c']) {
      const message = firstMessage(INTAKE, { kind: 'keys', values: [42, 'x'] }, keyPath);
      expect(evaluateKeyPath(parseKeyPath(keyPath), { body: JSON.parse(message.body), headers: {}, query: {} })).toBe(42);
    }
  });

  it('in a header or the query', () => {
    const header = firstMessage(INTAKE, { kind: 'keys', values: ['lamp'] }, "headers['x-device']");
    expect(header.headers).toContainEqual(['x-device', 'lamp']);
    expect(header.curl).toContain(`-H 'x-device: lamp'`);
    expect(firstMessage(INTAKE, { kind: 'keys', values: ['lamp'] }, 'query.device').url).toBe(`${INTAKE}?device=lamp`);
  });

  it('sends a plain body for a hub or a key path that does not parse, and quotes every word for the shell', () => {
    const hub = firstMessage(INTAKE, { kind: 'hub', hubId: 'h' }, null);
    expect(hub.url).toBe(`${INTAKE}?hub=h`);
    expect(hub.curl).toBe(`curl '${INTAKE}?hub=h' -H 'content-type: application/json' --data-binary '{"hello":"from curl"}'`);
    expect(firstMessage(INTAKE, { kind: 'keys', values: ['a'] }, 'body..x').body).toBe('{"hello":"from curl"}');
    expect(firstMessage(INTAKE, { kind: 'keys', values: ["it's"] }, 'body.id').curl).toContain(`--data-binary '{"id":"it'\\''s"}'`);
  });
});
