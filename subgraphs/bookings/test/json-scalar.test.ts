import { describe, expect, it } from 'vitest';
import { graphql } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { JSONScalar } from '../src/json-scalar.js';

const schema = buildSubgraphSchema([
  {
    typeDefs: parse('scalar JSON type Query { echo(value: JSON): JSON }'),
    resolvers: { JSON: JSONScalar, Query: { echo: (_, args) => args.value } },
  },
]);

const echo = async (source: string, variableValues?: Record<string, unknown>) =>
  (await graphql({ schema, source, ...(variableValues ? { variableValues } : {}) })).data?.echo;

describe('JSON scalar', () => {
  it('passes any variable value through unchanged', async () => {
    const value = [{ covers: 'two', tableIds: [1, null], nested: { ok: true } }, 3.5, 'x', null];
    expect(await echo('query ($v: JSON) { echo(value: $v) }', { v: value })).toEqual(value);
  });

  it('reads literals, with variables inside them', async () => {
    expect(
      await echo(
        'query ($n: JSON) { echo(value: [{ a: 1, b: 2.5, c: "s", d: true, e: null, f: X, g: $n }]) }',
        { n: 7 },
      ),
    ).toEqual([{ a: 1, b: 2.5, c: 's', d: true, e: null, f: 'X', g: 7 }]);
  });
});
