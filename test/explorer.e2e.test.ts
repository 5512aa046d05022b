import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const INTROSPECTION = '{ __schema { queryType { name } } }';

describe.each(MODES)('GraphQL explorer, introspection and persisted queries (%s mode)', (mode) => {
  let stack: Stack;
  let token: string;
  const explorerOn = mode === 'embedded';

  beforeAll(async () => {
    stack = await startStack(mode);
    token = await mintToken({ tenantId: newTenantId() });
  });
  afterAll(async () => stack?.close());

  it(`${explorerOn ? 'serves' : 'does not serve'} GraphiQL to a browser on GET /graphql`, async () => {
    const res = await fetch(`${stack.baseUrl}/graphql`, { headers: { accept: 'text/html,*/*' } });
    const text = await res.text();
    if (!explorerOn) {
      expect(text).not.toContain('graphiql');
      expect((await fetch(`${stack.baseUrl}/explorer/graphiql.js`)).status).toBe(404);
      return;
    }
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(text).toContain('src="/explorer/graphiql.js"');
    expect(text).not.toMatch(/src="https?:|href="https?:/);
    for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css']) {
      const file = await fetch(`${stack.baseUrl}/explorer/${asset}`);
      expect(file.status, asset).toBe(200);
      expect((await file.text()).length, asset).toBeGreaterThan(1000);
    }
  });

  it(`${explorerOn ? 'allows' : 'refuses'} introspection by default`, async () => {
    const res = await stack.graphql(token, INTROSPECTION);
    if (explorerOn) {
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.__schema.queryType.name).toBe('Query');
    } else {
      expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    }
  });

  it('answers an unknown persisted query with PERSISTED_QUERY_NOT_FOUND, as Apollo clients expect', async () => {
    const res = await stack.api('POST', '/graphql', {
      token,
      body: { extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } },
    });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });
});
