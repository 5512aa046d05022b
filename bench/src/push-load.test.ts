import { describe, expect, it } from 'vitest';
import { orderIdOf } from './push-load.js';

describe("scenario 4's raw timing: the orderId of a frame's bytes", () => {
  it('finds the orderId of a next frame, whatever the id and the fields around it', () => {
    const frame = (id: string, data: string) =>
      Buffer.from(
        `{"id":${JSON.stringify(id)},"type":"next","payload":{"data":{"tableStatusChanged":{"data":${data}}}}}`,
      );
    expect(orderIdOf(frame('1', '{"orderId":"r0-17"}'))).toBe('r0-17');
    expect(orderIdOf(frame('a"b', '{"previousStatus":"free","orderId":"warm-3","pax":2}'))).toBe('warm-3');
  });

  it('answers nothing for a frame without one (a null orderId, another message, a cut frame)', () => {
    expect(
      orderIdOf(Buffer.from('{"id":"1","type":"next","payload":{"data":{"x":{"data":{"orderId":null}}}}}')),
    ).toBe('');
    expect(orderIdOf(Buffer.from('{"type":"pong"}'))).toBe('');
    expect(orderIdOf(Buffer.from('{"orderId":"r1-'))).toBe('');
  });
});
