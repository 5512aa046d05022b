import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import { createMemoryCache } from '@coperto/cache';
import { createGraphQLReadCache } from '../src/graphql/read-cache/read-cache.js';

const schema = buildSchema(readFileSync(new URL('../../schema/api.graphql', import.meta.url), 'utf8'));
const viewer: Viewer = {
  tenantId: trustedTenantId('t1'),
  subject: null,
  roles: [],
  isAdmin: false,
  token: 't',
};

describe('the GraphQL read cache: its document analyses against their bound', () => {
  it('keeps at most maxAnalyses, drops the oldest analysed, and reports it (bounded_state)', async () => {
    const cache = createMemoryCache();
    const readCache = createGraphQLReadCache({
      schema,
      cache,
      ttlSeconds: 5,
      maxTokens: 10_000,
      maxAnalyses: 3,
    });
    const lookup = (query: string) =>
      readCache.lookup({ contentType: 'application/json', body: { query }, accept: undefined, viewer });
    for (let i = 0; i < 5; i++) await lookup(`query Q${i} { tavoli { name } }`);
    await lookup('query Q4 { tavoli { name } }');
    expect(readCache.bounded().graphql_read_analyses).toEqual({
      entries: 3,
      capacity: 3,
      evictions: 2,
      hits: 1,
      misses: 5,
    });
    await lookup('query Q0 { tavoli { name } }'); // forgotten: analysed again
    expect(readCache.bounded().graphql_read_analyses).toMatchObject({ entries: 3, misses: 6, evictions: 3 });
    expect(readCache.bounded().graphql_encoded_answers).toMatchObject({ entries: 0, capacity: 256 });
    await cache.close();
  });
});
