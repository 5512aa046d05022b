import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { injectableGateway } from './support/inject-gateway.js';

type Gateway = Awaited<ReturnType<typeof injectableGateway>>;

const FLOOR = '{ sale { name tavoli { name seats status } } }';

describe('GraphQL read cache (/graphql, inject, embedded)', () => {
  let gateway: Gateway;
  let token: string;

  beforeAll(async () => {
    gateway = await injectableGateway();
    token = await mintToken({ tenantId: newTenantId(), admin: true });
  }, 60_000);
  afterAll(() => gateway?.close());

  const post = (body: unknown, headers: Record<string, string> = {}, as = token) =>
    gateway.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
  const run = async (query: string, variables?: Record<string, unknown>, as = token) => {
    const response = await post({ query, ...(variables ? { variables } : {}) }, {}, as);
    expect(response.statusCode).toBe(200);
    expect(response.json().errors).toBeUndefined();
    return response;
  };

  it('answers a repeated query from the cache, and never with an answer older than an acknowledged write', async () => {
    const sala = (await run('mutation { createSala(input: { codice: "r1" }) { id } }')).json().data
      .createSala;
    const tavolo = (
      await run('mutation ($s: ID!) { createTavolo(input: { name: "T1", seats: 2, salaId: $s }) { id } }', {
        s: sala.id,
      })
    ).json().data.createTavolo;
    const first = await run(FLOOR);
    expect(first.headers['x-cache']).toBe('miss');
    const second = await run(FLOOR);
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['cache-control']).toBe(first.headers['cache-control']);
    expect(second.json().data.sale).toEqual([
      { name: 'R1', tavoli: [{ name: 'T1', seats: 2, status: 'free' }] },
    ]);

    // A table write (status) and a room write (description): each is in the next answer.
    await run('mutation ($id: ID!) { setTavoloStatus(id: $id, input: { status: occupied }) { id } }', {
      id: tavolo.id,
    });
    const afterTable = await run(FLOOR);
    expect(afterTable.headers['x-cache']).toBe('miss');
    expect(afterTable.json().data.sale[0].tavoli[0].status).toBe('occupied');
    expect((await run(FLOOR)).headers['x-cache']).toBe('hit');
    await run('mutation ($id: ID!) { updateSala(id: $id, input: { descrizione: "Terrazza" }) { id } }', {
      id: sala.id,
    });
    const afterRoom = await run(FLOOR);
    expect(afterRoom.headers['x-cache']).toBe('miss');
    expect(afterRoom.json().data.sale[0].name).toBe('Terrazza');
    await run('mutation ($id: ID!) { deleteTavolo(id: $id) { id } }', { id: tavolo.id });
    expect((await run(FLOOR)).json().data.sale[0].tavoli).toEqual([]);
  });

  it("keeps each tenant's answers its own", async () => {
    const other = await mintToken({ tenantId: newTenantId(), admin: true });
    await run('mutation { createSala(input: { codice: "mine" }) { id } }');
    await run(FLOOR);
    expect((await run(FLOOR)).headers['x-cache']).toBe('hit');
    const theirs = await run(FLOOR, undefined, other);
    expect(theirs.headers['x-cache']).toBe('miss');
    expect(theirs.json().data.sale).toEqual([]);
  });

  it('answers each Accept with the media type Apollo Server picks for it', async () => {
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      const miss = await post({ query: '{ tavoli { name } }' }, { accept });
      const hit = await post({ query: '{ tavoli { name } }' }, { accept });
      expect(hit.headers['x-cache']).toBe('hit');
      expect(hit.headers['content-type']).toBe(miss.headers['content-type']);
      expect(hit.headers['content-type']).toContain(accept);
      expect(hit.body).toBe(miss.body);
    }
  });

  it('keys answers by the variables and the operation name', async () => {
    const q = 'query A($id: ID!) { sala(id: $id) { codice } } query B { sale { codice } }';
    const sala = (await run('mutation { createSala(input: { codice: "vars" }) { id } }')).json().data
      .createSala;
    const a = await post({ query: q, operationName: 'A', variables: { id: sala.id } });
    expect(a.json().data.sala.codice).toBe('VARS');
    const none = await post({ query: q, operationName: 'A', variables: { id: 'missing' } });
    expect(none.json().data.sala).toBeNull();
    const b = await post({ query: q, operationName: 'B' });
    expect(b.json().data.sale.map((s: { codice: string }) => s.codice)).toContain('VARS');
    expect((await post({ query: q, operationName: 'A', variables: { id: sala.id } })).body).toBe(a.body);
  });

  it('runs everything else as ever: other fields, mutations, errors, other media types', async () => {
    const bookings = await post({ query: '{ prenotazioni { id } }' });
    expect(bookings.statusCode).toBe(200);
    expect(bookings.headers['x-cache']).toBeUndefined();
    const locks = await post({ query: '{ tavoli { lock { expiresAt } } }' });
    expect(locks.headers['x-cache']).toBeUndefined();
    // An answer with errors is never stored: the same request runs again.
    const bad = { query: 'query ($id: ID!) { tavolo(id: $id) { name } }' };
    const first = await post(bad);
    expect(first.json().errors).toBeDefined();
    const again = await post(bad);
    expect(again.headers['x-cache']).toBe('miss');
    expect(again.json().errors).toBeDefined();
    // A body Apollo Server refuses (not application/json) is refused as ever, not answered from the cache.
    await run('{ sale { codice } }');
    const wrongType = await gateway.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      payload: JSON.stringify({ query: '{ sale { codice } }' }),
    });
    expect(wrongType.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrongType.headers['x-cache']).toBeUndefined();
  });
});

describe('GraphQL read cache off (GRAPHQL_READ_CACHE=false)', () => {
  it('runs every query', async () => {
    const gateway = await injectableGateway({ GRAPHQL_READ_CACHE: 'false' });
    try {
      const token = await mintToken({ tenantId: newTenantId(), admin: true });
      for (let i = 0; i < 2; i++) {
        const response = await gateway.http.inject({
          method: 'POST',
          url: '/graphql',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ query: FLOOR }),
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['x-cache']).toBeUndefined();
      }
    } finally {
      await gateway.close();
    }
  }, 60_000);
});
