import { readFileSync } from 'node:fs';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { describe, expect, it } from 'vitest';
import { apiSchemaOf } from '../src/pages/openapi/api-schema.js';
import { createValidatorCompiler, requestSchemaCompiler } from '../src/http/request-validation.js';
import { requestSchemas } from '../src/rest/request-schema.js';
import { operationDocument, routes } from '../src/rest/route-table.js';

const api = apiSchemaOf(readFileSync(new URL('../../supergraph.graphql', import.meta.url), 'utf8'));

const routeSchema = (schema: unknown, httpPart: string) =>
  ({ schema, httpPart, url: '/x', method: 'POST' }) as FastifyRouteSchemaDef<Record<string, unknown>>;

describe('request validation', () => {
  // The gateway compiles a route's schemas on its first request: here every one is compiled up front, so a
  // schema ajv refuses fails the tests, never a request.
  it('compiles the request schemas of every REST route', () => {
    const compile = requestSchemaCompiler();
    let compiled = 0;
    for (const route of routes) {
      for (const [httpPart, schema] of Object.entries(requestSchemas(route, api, operationDocument(route)))) {
        expect(
          () => compile(routeSchema(schema, httpPart)),
          `${route.method} ${route.path} ${httpPart}`,
        ).not.toThrow();
        compiled += 1;
      }
    }
    expect(compiled).toBeGreaterThan(routes.length);
  });

  it('compiles a schema on its first use, not when the route is registered', () => {
    const validate = createValidatorCompiler()(routeSchema({ type: 'object', required: 42 }, 'body'));
    expect(() => validate({})).toThrow();
  });

  it('answers as ajv does: errors on the validator, query text read as its type, bodies taken as they are', () => {
    const compile = createValidatorCompiler();
    const schema = {
      type: 'object',
      properties: { seats: { type: 'integer' } },
      required: ['seats'],
    };
    const body = compile(routeSchema(schema, 'body'));
    expect(body({ seats: '4' })).toBe(false);
    expect(body.errors).toMatchObject([{ instancePath: '/seats', keyword: 'type' }]);
    expect(body({ seats: 4 })).toBe(true);
    expect(body.errors).toBeNull();
    const query = compile(routeSchema(schema, 'querystring'));
    const text = { seats: '4' };
    expect(query(text)).toBe(true);
    expect(text).toEqual({ seats: 4 });
  });
});
