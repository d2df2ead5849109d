/**
 * The message frame written around the request's own text (services/forwarder/message-frame.ts): a
 * listener parses from it exactly the message the frame of the parsed value would give, whatever the
 * body's text looks like (indented, escaped, a NUL), and the legacy sandbox's data likewise.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameAround, frameOf, webhookDataJson } from '../../../../services/forwarder/message-frame';

const receivedAt = '2026-11-28T12:00:00.000Z';
/** Ways a sender may write the same JSON value. */
const texts = (value: unknown) => [JSON.stringify(value), JSON.stringify(value, null, 2), ` \n${JSON.stringify(value, null, '\t')}\r\n`];

describe('frameOf(frameAround(…))', () => {
  it('parses to the message the parsed body gives, with or without its body, for any text of it', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.dictionary(fc.string(), fc.string()),
        fc.dictionary(fc.string(), fc.string()),
        fc.base64String(),
        fc.string(),
        (body, headers, query, rawBody, id) => {
          const message = { receivedAt, headers, query, body, rawBody };
          for (const bodyJson of texts(body)) {
            const around = frameAround({ message, bodyJson }, true);
            expect(JSON.parse(frameOf(around, id))).toEqual(JSON.parse(JSON.stringify({ type: 'message', message: { id, ...message } })));
            const { body: _body, ...raw } = message;
            expect(frameOf(frameAround({ message, bodyJson }, false), id)).toBe(JSON.stringify({ type: 'message', message: { id, ...raw } }));
          }
        },
      ),
    );
  });

  it('is the very frame JSON.stringify writes when the body text is the value’s own JSON', () => {
    const message = { receivedAt, headers: { 'x-a': '"quoted"\u0000' }, query: { hub: 'h' }, body: { a: ['é', 1, null] }, rawBody: 'eyJhIjoxfQ==' };
    expect(frameOf(frameAround({ message, bodyJson: JSON.stringify(message.body) }, true), 'm-1')).toBe(
      JSON.stringify({ type: 'message', message: { id: 'm-1', ...message } }),
    );
  });
});

describe('webhookDataJson', () => {
  it('parses to {headers, query, body} for any text of the body', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string(), fc.string()), fc.dictionary(fc.string(), fc.string()), (body, headers, query) => {
        for (const bodyJson of texts(body)) {
          expect(JSON.parse(webhookDataJson(headers, query, bodyJson))).toEqual(JSON.parse(JSON.stringify({ headers, query, body })));
        }
      }),
    );
  });
});
