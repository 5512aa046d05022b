import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintRawToken, mintToken, newTenantId, TEST_SERVICE_TOKEN_SECRET } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const SERVICE_ISSUER = 'urn:coperto:service';

describe.each(MODES)('booking channels and their keys (%s mode)', (mode) => {
  let stack: Stack;
  let tenant: string;
  let admin: string;
  let staff: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    tenant = newTenantId();
    admin = await mintToken({ tenantId: tenant, admin: true });
    staff = await mintToken({ tenantId: tenant });
  });
  afterAll(async () => stack?.close());

  const createChannel = (body: Record<string, unknown>, token = admin) =>
    stack.api('POST', '/api/canali', { token, body });
  const whoAmI = (key: string) => stack.graphql(key, '{ canaleCorrente { id nome } }');

  it('an administrator creates a channel: 201 with both names, its origins and its key, shown once', async () => {
    const res = await createChannel({ nome: 'Sito', origini: ['https://www.example.it'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      nome: 'Sito',
      name: 'Sito',
      origini: ['https://www.example.it'],
      origins: ['https://www.example.it'],
    });
    expect(res.body.chiave).toEqual(expect.any(String));
    expect(res.body.key).toBe(res.body.chiave);
    const list = await stack.api('GET', '/api/canali', { token: admin });
    expect(list.status).toBe(200);
    const listed = list.body.find((c: { id: string }) => c.id === res.body.id);
    expect(listed).toEqual({
      id: res.body.id,
      nome: 'Sito',
      name: 'Sito',
      origini: ['https://www.example.it'],
      origins: ['https://www.example.it'],
      createdAt: res.body.createdAt,
    });
    expect(JSON.stringify(list.body)).not.toContain(res.body.chiave);
  });

  it('names the bad fields (400), and is for administrators only (403)', async () => {
    const bad = await createChannel({ name: '', origins: ['not an origin'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    for (const [method, path, body] of [
      ['POST', '/api/canali', { name: 'x' }],
      ['GET', '/api/canali', undefined],
      ['DELETE', '/api/canali/any', undefined],
    ] as const) {
      const res = await stack.api(method, path, { token: staff, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('a channel key is refused (403) on the routes its role does not have, through REST and /graphql', async () => {
    const { body } = await createChannel({ name: 'Partner' });
    const key = body.key as string;
    expect((await whoAmI(key)).body.data.canaleCorrente).toEqual({ id: body.id, nome: 'Partner' });
    for (const [method, path] of [
      ['GET', '/api/tavoli'],
      ['GET', '/api/sale'],
      ['GET', '/api/prenotazioni'],
      ['GET', '/api/canali'],
      ['POST', '/api/canali'],
      ['DELETE', `/api/canali/${body.id}`],
    ] as const) {
      const res = await stack.api(method, path, { token: key, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const gql = await stack.graphql(key, '{ tavoli { id } }');
    expect(gql.status).toBe(403);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const sneaky = await stack.graphql(key, '{ ... on Query { canaleCorrente { id } sale { id } } }');
    expect(sneaky.status).toBe(403);
  });

  it("a deleted channel's key is refused with 401 within 5 s, and stays refused", async () => {
    const { body } = await createChannel({ name: 'Short-lived' });
    const key = body.key as string;
    expect((await whoAmI(key)).status).toBe(200);
    const deleted = await stack.api('DELETE', `/api/canali/${body.id}`, { token: admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: body.id, deleted: true });
    const start = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - start < 5000) {
      status = (await whoAmI(key)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);
    const again = await stack.api('GET', '/api/tavoli', { token: key });
    expect(again.status).toBe(401);
    expect(again.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await stack.api('DELETE', `/api/canali/${body.id}`, { token: admin })).status).toBe(404);
  });

  it('a staff token cannot pass for a service token, nor claim a service role', async () => {
    const forged = await mintRawToken({
      iss: SERVICE_ISSUER,
      tenantId: tenant,
      role: 'channel',
      sub: 'c1',
      name: 'x',
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    expect((await stack.api('GET', '/api/tavoli', { token: forged })).status).toBe(401);
    const claiming = await mintToken({ tenantId: tenant, roles: ['guest'] });
    expect((await stack.api('GET', '/api/tavoli', { token: claiming })).status).toBe(401);
    // Nor is a token signed with the service key but not naming its issuer a staff token.
    const serviceSigned = await mintRawToken(
      { tenantId: tenant, exp: Math.floor(Date.now() / 1000) + 600 },
      { secret: TEST_SERVICE_TOKEN_SECRET },
    );
    expect((await stack.api('GET', '/api/tavoli', { token: serviceSigned })).status).toBe(401);
  });

  it("another tenant's administrator neither lists nor deletes the channel", async () => {
    const { body } = await createChannel({ name: 'Mine' });
    const other = await mintToken({ tenantId: newTenantId(), admin: true });
    expect((await stack.api('GET', '/api/canali', { token: other })).body).toEqual([]);
    expect((await stack.api('DELETE', `/api/canali/${body.id}`, { token: other })).status).toBe(404);
    expect((await whoAmI(body.key)).status).toBe(200);
  });
});
