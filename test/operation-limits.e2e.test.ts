// GraphQL operation limits (packages/graphql-limits) through the public port in both modes: tokens, depth,
// aliases, directives and cost refused with 400 QUERY_TOO_COMPLEX before any planning, on /graphql and on
// its graphql-ws socket, the token checked before the body is read, and the subgraph ports holding the same
// limits and the gateway's body limit (distributed mode).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintToken, newTenantId } from '@coperto/testkit';
import { collect, graphqlWsClient } from '../gateway/test/support/ws-clients.js';
import { createApi } from './support/http.js';
import { MODES, startStack } from './support/modes.js';
import { startEmbedded, type ProcessHandle, type Stack } from './support/stack.js';

const aliases = (count: number) =>
  `{tavoli{${Array.from({ length: count }, (_, i) => `a${i}:id`).join(' ')}}}`;
/** `{ sale { tavoli { sala { tavoli { … 20 levels … } } } } }` */
const NESTED_20 = `{ sale { ${'tavoli { sala { '.repeat(10)}id${' } }'.repeat(10)} } }`;
/** Depth 9 (within the limit), but each Sala.tavoli multiplies the work by the rows it returns. */
const CYCLIC_LISTS = `{ sale { tavoli { sala { tavoli { sala { tavoli { sala { tavoli { id } } } } } } } } }`;

function tooComplex(body: any) {
  expect(body.data).toBeUndefined();
  return body.errors.map((e: any) => {
    expect(e.extensions.code, JSON.stringify(body)).toBe('QUERY_TOO_COMPLEX');
    return e.extensions.details;
  });
}

describe.each(MODES)('GraphQL operation limits (%s)', (mode) => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    token = await mintToken({ tenantId: newTenantId() });
  });
  afterAll(async () => stack?.close());

  it('refuses 16,000 and 60,000 aliases (149 KB, 589 KB) on the token count, liveness answering', async () => {
    for (const count of [16_000, 60_000]) {
      const live = fetch(`${stack.healthUrl}/public/health/live`);
      const answer = await stack.graphql(token, aliases(count));
      expect(answer.status).toBe(400);
      expect(tooComplex(answer.body)).toEqual([{ limit: 'tokens', max: 2000 }]);
      expect((await live).status).toBe(200);
    }
  });

  it('refuses a query nested 20 levels through the cyclic relations, naming the depth', async () => {
    const answer = await stack.graphql(token, NESTED_20);
    expect(answer.status).toBe(400);
    expect(tooComplex(answer.body)).toContainEqual({ limit: 'depth', max: 10, actual: 22 });
  });

  it('refuses too many aliases, too many directives and a too costly shallow query', async () => {
    const many = await stack.graphql(token, aliases(31));
    expect(many.status).toBe(400);
    expect(tooComplex(many.body)).toEqual([{ limit: 'aliases', max: 30, actual: 31 }]);

    const included = Array.from({ length: 21 }, (_, i) => `f${i}: id @include(if: true)`).join(' ');
    const directives = await stack.graphql(token, `{ tavoli { ${included} } }`);
    expect(directives.status).toBe(400);
    expect(tooComplex(directives.body)).toEqual([{ limit: 'directives', max: 20, actual: 21 }]);

    const costly = await stack.graphql(token, CYCLIC_LISTS);
    expect(costly.status).toBe(400);
    const [details] = tooComplex(costly.body);
    expect(details).toMatchObject({ limit: 'cost', max: 20_000 });
    expect(details.actual).toBeGreaterThan(20_000);
  });

  it('still answers the queries within the limits, and the REST routes', async () => {
    const ok = await stack.graphql(token, `{ sale { id tavoli { id sala { id } } } }`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { sale: [] } });
    expect((await stack.api('GET', '/api/tavoli', { token })).status).toBe(200);
  });

  it('checks the token before reading the body: a bad token with a malformed or huge body is a 401', async () => {
    const malformed = await stack.api('POST', '/graphql', { raw: '{"query": "{', token: 'not-a-jwt' });
    expect(malformed.status).toBe(401);
    expect(malformed.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const huge = await stack.api('POST', '/graphql', { body: { query: aliases(60_000) } });
    expect(huge.status).toBe(401);
    expect(huge.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('refuses an over-limit subscription on the graphql-ws socket', async () => {
    const client = graphqlWsClient(stack.baseUrl.replace(/^http/, 'ws') + '/graphql', bearer(token));
    try {
      const fields = Array.from({ length: 40 }, (_, i) => `a${i}: id`).join(' ');
      const aliased = collect(client, `subscription { tableStatusChanged { ${fields} } }`);
      const errors = (await aliased.failed) as Array<{ extensions?: { code?: string; details?: unknown } }>;
      expect(errors.map((e) => e.extensions?.code)).toEqual(['QUERY_TOO_COMPLEX']);
      expect(errors[0]!.extensions?.details).toEqual({ limit: 'aliases', max: 30, actual: 40 });
    } finally {
      await client.dispose();
    }
  });

  it.runIf(mode === 'distributed')(
    'subgraph ports: token first, the same limits, and the gateway body limit',
    async () => {
      const subgraphs = (stack as Stack & { subgraphs: Record<string, ProcessHandle[]> }).subgraphs;
      const port = subgraphs.tavolo![0]!.port;
      const direct = createApi(`http://127.0.0.1:${port}`);
      const noToken = await direct('POST', '/graphql', { raw: '{"query": "{' });
      expect(noToken.status).toBe(401);
      expect(noToken.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(noToken.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      const deep = await direct('POST', '/graphql', {
        token,
        body: { query: `{ tavoli { ${'sala { tavoli { '.repeat(6)}id${' } }'.repeat(6)} } }` },
      });
      expect(deep.status).toBe(400);
      expect(tooComplex(deep.body)).toContainEqual({ limit: 'depth', max: 10, actual: 14 });
      const bomb = await direct('POST', '/graphql', { token, body: { query: aliases(60_000) } });
      expect(bomb.status).toBe(400);
      expect(tooComplex(bomb.body)).toEqual([{ limit: 'tokens', max: 2000 }]);
      const large = await direct('POST', '/graphql', {
        token,
        body: { query: '{ tavoli { id } }', padding: 'x'.repeat(1024 * 1024) },
      });
      expect(large.status).toBe(413);
    },
  );
});

describe('GraphQL operation limits are configurable (GRAPHQL_MAX_*)', () => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    stack = await startEmbedded({
      GRAPHQL_MAX_DEPTH: '3',
      GRAPHQL_MAX_ALIASES: '0',
      GRAPHQL_MAX_TOKENS: '100',
    });
    token = await mintToken({ tenantId: newTenantId() });
  });
  afterAll(async () => stack?.close());

  it('applies the configured ceilings to /graphql but never to the REST routes', async () => {
    const deep = await stack.graphql(token, `{ sale { tavoli { sala { id } } } }`);
    expect(deep.status).toBe(400);
    expect(tooComplex(deep.body)).toEqual([{ limit: 'depth', max: 3, actual: 4 }]);
    const aliased = await stack.graphql(token, `{ x: sale { id } }`);
    expect(tooComplex(aliased.body)).toEqual([{ limit: 'aliases', max: 0, actual: 1 }]);
    expect((await stack.api('GET', '/api/tavoli', { token })).status).toBe(200);
  });
});
