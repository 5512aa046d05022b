import { parse } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UnauthenticatedError } from '@coperto/errors';
import { createSubgraphExecutor } from '../src/execute-subgraph.js';
import type { Subgraph } from '../src/subgraph.js';

const typeDefs = parse(`
  type Query { echo(n: Int!): Int!  missing: Int  broken: Int }
`);
const internal: unknown[] = [];
const subgraph: Subgraph = {
  name: 'test',
  typeDefs,
  schema: buildSubgraphSchema({
    typeDefs,
    resolvers: {
      Query: {
        echo: (_: unknown, { n }: { n: number }) => n,
        missing: () => {
          throw new NotFoundError('Thing', '1');
        },
        broken: () => {
          throw new Error('secret internal detail');
        },
      },
    },
  }),
  outboxCollections: [],
  init: async () => {},
  createContext: async ({ authorization }) => {
    if (authorization !== 'Bearer ok') throw new UnauthenticatedError();
    return {};
  },
};
const execute = createSubgraphExecutor(subgraph, { onInternalError: (e) => internal.push(e) });
const auth = { authorization: 'Bearer ok' };

describe('subgraph executor', () => {
  it('executes with the context built from the forwarded token', async () => {
    expect(await execute({ query: '{ echo(n: 3) }' }, auth)).toEqual({ data: { echo: 3 } });
  });

  it('refuses a request whose token the subgraph does not accept', async () => {
    const result = await execute({ query: '{ echo(n: 3) }' }, { authorization: undefined });
    expect(result.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(result.data).toBeUndefined();
  });

  it('reports a wrongly typed variable as VALIDATION_FAILED naming the field, not as an internal error', async () => {
    const result = await execute({ query: 'query($n: Int!) { echo(n: $n) }', variables: { n: 'two' } }, auth);
    expect(result.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: [{ field: 'n' }] },
    });
  });

  it('reports unparsable and invalid queries as VALIDATION_FAILED', async () => {
    expect((await execute({ query: '{ echo(' }, auth)).errors?.[0]?.extensions?.code).toBe(
      'VALIDATION_FAILED',
    );
    expect((await execute({ query: '{ nope }' }, auth)).errors?.[0]?.extensions?.code).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('keeps domain error codes and hides internal errors', async () => {
    expect((await execute({ query: '{ missing }' }, auth)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const broken = await execute({ query: '{ broken }' }, auth);
    expect(broken.errors?.[0]).toMatchObject({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL' },
    });
    expect(JSON.stringify(broken)).not.toContain('secret internal detail');
    expect(internal).toHaveLength(1);
  });
});

describe('subgraph executor with operation limits', () => {
  const limits = { maxTokens: 20, maxDepth: 10, maxAliases: 1, maxDirectives: 5, maxCost: 100 };
  const limited = createSubgraphExecutor(subgraph, { limits });

  it('checks the token before looking at the query: a bad token with an unparsable query is UNAUTHENTICATED', async () => {
    const result = await limited({ query: '{ echo(' }, { authorization: 'Bearer bad' });
    expect(result.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
  });

  it('refuses a document over a limit with QUERY_TOO_COMPLEX naming it, every time (the refusal is cached)', async () => {
    const aliased = '{ a: echo(n: 1) b: echo(n: 2) }';
    for (let i = 0; i < 2; i++) {
      const result = await limited({ query: aliased }, auth);
      expect(result.errors?.map((e) => e.extensions)).toEqual([
        { code: 'QUERY_TOO_COMPLEX', details: { limit: 'aliases', max: 1, actual: 2 } },
      ]);
    }
    const long = `{ ${Array.from({ length: 10 }, () => 'echo(n: 1)').join(' ')} }`;
    expect((await limited({ query: long }, auth)).errors?.[0]?.extensions).toEqual({
      code: 'QUERY_TOO_COMPLEX',
      details: { limit: 'tokens', max: 20 },
    });
    expect(await limited({ query: '{ echo(n: 3) }' }, auth)).toEqual({ data: { echo: 3 } });
  });
});
