// GRAPHQL_TRUSTED_DOCUMENTS through the public port in both modes: with the project's manifest, /graphql runs
// only its documents (full text or persisted-query hash), refuses others with 400 QUERY_NOT_TRUSTED, and the
// REST routes keep working.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintToken, newTenantId } from '@coperto/testkit';
import { collect, graphqlWsClient } from '../gateway/test/support/ws-clients.js';
import { operations } from '../gateway/src/rest/operations.js';
import { documentHash } from '../gateway/src/graphql/trusted-documents.js';
import { MODES, sharedDistributedGateway } from './support/modes.js';
import { startEmbedded, type Mode, type Stack } from './support/stack.js';

const env = { GRAPHQL_TRUSTED_DOCUMENTS: resolve(import.meta.dirname, '../gateway/trusted-documents.json') };

function start(mode: Mode): Promise<Stack> {
  if (mode === 'embedded') return startEmbedded(env);
  return sharedDistributedGateway(env);
}

describe.each(MODES)('trusted documents (%s)', (mode) => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    stack = await start(mode);
    token = await mintToken({ tenantId: newTenantId() });
  });
  afterAll(async () => stack?.close());

  it('runs a document of the manifest, sent in full or as its persisted-query hash (POST and GET)', async () => {
    const full = await stack.graphql(token, operations.ListSale);
    expect(full.status).toBe(200);
    expect(full.body).toEqual({ data: { sale: [] } });

    const persistedQuery = { version: 1, sha256Hash: documentHash(operations.ListSale) };
    const byHash = await stack.api('POST', '/graphql', { token, body: { extensions: { persistedQuery } } });
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual({ data: { sale: [] } });

    const search = new URLSearchParams({ extensions: JSON.stringify({ persistedQuery }) });
    const get = await stack.api('GET', `/graphql?${search}`, {
      token,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { sale: [] } });
  });

  it('refuses any other document, or an unknown hash, with 400 QUERY_NOT_TRUSTED', async () => {
    const other = await stack.graphql(token, '{ sale { id } }');
    expect(other.status).toBe(400);
    expect(other.body.errors[0].extensions).toEqual({
      code: 'QUERY_NOT_TRUSTED',
      details: { sha256: documentHash('{ sale { id } }') },
    });
    const persistedQuery = { version: 1, sha256Hash: documentHash('{ tavoli { id } }') };
    const unknown = await stack.api('POST', '/graphql', { token, body: { extensions: { persistedQuery } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions.code).toBe('QUERY_NOT_TRUSTED');
  });

  it('refuses an untrusted subscription on the socket', async () => {
    const client = graphqlWsClient(stack.baseUrl.replace(/^http/, 'ws') + '/graphql', bearer(token));
    try {
      const received = collect(client, 'subscription { tableStatusChanged { id } }');
      const errors = (await received.failed) as Array<{ extensions?: { code?: string } }>;
      expect(errors.map((e) => e.extensions?.code)).toEqual(['QUERY_NOT_TRUSTED']);
    } finally {
      await client.dispose();
    }
  });

  it('keeps the REST routes working', async () => {
    const created = await stack.api('POST', '/api/sale', { token, body: { codice: 'terrazza' } });
    expect(created.status).toBe(201);
    const listed = await stack.api('GET', '/api/sale', { token });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(created.body.id);
  });
});
