import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { nextFramer, nextPayloadJson } from '../src/subscriptions/next-frame.js';

describe('next frames', () => {
  it('frame a shared payload as the graphql-transport-ws next message of each id', () => {
    const payload = nextPayloadJson({ data: { tableStatusChanged: { subject: 't1' } } });
    for (const id of ['1', 'a "quoted" id', 'ünï\\code']) {
      expect(JSON.parse(nextFramer(id)(payload))).toEqual({
        id,
        type: 'next',
        payload: { data: { tableStatusChanged: { subject: 't1' } } },
      });
    }
  });

  it('write errors in their wire form (message, locations, path) and leave absent keys out', () => {
    const error = new GraphQLError('boom', { path: ['tableStatusChanged', 'data'] });
    expect(JSON.parse(nextPayloadJson({ data: null, errors: [error] }))).toEqual({
      data: null,
      errors: [{ message: 'boom', path: ['tableStatusChanged', 'data'] }],
    });
    expect(nextPayloadJson({ data: { a: 1 } })).toBe('{"data":{"a":1}}');
  });
});
