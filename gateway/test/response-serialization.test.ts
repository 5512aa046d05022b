import { readFileSync } from 'node:fs';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { describe, expect, it } from 'vitest';
import { apiSchemaOf } from '../src/pages/openapi/api-schema.js';
import { lazySerializers } from '../src/http/response-serialization.js';
import { inlineResponseSchema } from '../src/rest/request-schema.js';
import { operationDocument, routes } from '../src/rest/route-table.js';

const api = apiSchemaOf(readFileSync(new URL('../../supergraph.graphql', import.meta.url), 'utf8'));
const route = (schema: unknown) => ({ method: 'GET', url: '/x', httpStatus: '200', schema });

describe('response serialization', () => {
  // The gateway compiles a route's response schema on its first answer: here every one is compiled up front,
  // so a schema fast-json-stringify refuses fails the tests, never a response.
  it('compiles the response schema of every REST route', () => {
    const compile = SerializerSelector()();
    for (const rest of routes) {
      const schema = inlineResponseSchema(rest, api, operationDocument(rest));
      expect(() => compile(route(schema)), `${rest.method} ${rest.path}`).not.toThrow();
    }
  });

  it('compiles a schema on its first use, not when the route is registered', () => {
    const eager = SerializerSelector();
    let compiled = 0;
    const counting: typeof eager = (externalSchemas, options) => {
      const inner = eager(externalSchemas, options);
      return (definition) => {
        compiled += 1;
        return inner(definition);
      };
    };
    const serialize = lazySerializers(counting)()(route({ type: 'object' }));
    expect(compiled).toBe(0);
    serialize({});
    serialize({});
    expect(compiled).toBe(1);
  });

  it('writes the bytes the eager serializer writes', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        seats: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' } },
      },
    };
    const document = { name: 'T1 "vetrata"', seats: 4, tags: ['a', 'ü'], extra: true };
    const eager = SerializerSelector()()(route(schema));
    const lazy = lazySerializers()()(route(schema));
    expect(lazy(document)).toBe(eager(document));
    expect(JSON.parse(lazy(document))).toEqual({ name: 'T1 "vetrata"', seats: 4, tags: ['a', 'ü'] });
  });
});
