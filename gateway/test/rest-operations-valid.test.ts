import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { apiSchemaOf } from '../src/pages/openapi/api-schema.js';
import { googleOperations } from '../src/google/operations.js';
import { operations } from '../src/rest/operations.js';

// Every REST route runs one fixed GraphQL operation, as does each call of the Google booking server: each must validate against the composed supergraph's
// public API schema, so a renamed or removed field fails here instead of on a request.
const api = apiSchemaOf(readFileSync(new URL('../../supergraph.graphql', import.meta.url), 'utf8'));

describe("the REST facade's operations", () => {
  it.each(Object.entries(operations))('%s validates against the supergraph', (_name, source) => {
    expect(validate(api, parse(source)).map((e) => e.message)).toEqual([]);
  });

  it.each(Object.entries(googleOperations))(
    '%s (the Google booking server) validates against the supergraph',
    (_name, source) => {
      expect(validate(api, parse(source)).map((e) => e.message)).toEqual([]);
    },
  );

  it('fails an operation that selects a field the supergraph lacks', () => {
    expect(validate(api, parse('query { sale { id nomeSbagliato } }')).length).toBeGreaterThan(0);
  });
});
