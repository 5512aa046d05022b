import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '@coperto/auth';
import { askingCanali, type InProcessSubgraphs, type TypedDocumentNode } from '@coperto/server-kit';
import { mintToken, newTenantId, TEST_JWT_SECRET } from '@coperto/testkit';
import { doc, hostCanali, refusal, type Vars } from './hosted-canali.js';

const CREATE = doc(
  'mutation($input: CanaleInput!) { createCanale(input: $input) { id nome name origini origins chiave key createdAt } }',
);
const LIST = doc('{ canali { id nome name origini origins createdAt } }');
const CURRENT = doc('{ canaleCorrente { id nome } }');
const DELETE = doc('mutation($id: ID!) { deleteCanale(id: $id) { id deleted } }');

describe('the canali subgraph', () => {
  let hosted: InProcessSubgraphs;
  let close: () => Promise<void>;
  let admin: string;
  let staff: string;
  const call = (document: TypedDocumentNode<Record<string, unknown>, Vars>, vars: Vars, auth: string) =>
    hosted.client.request('canali', document, vars, auth);
  type Created = { id: string; key: string; chiave: string; createdAt: string; origini: string[] };
  const create = async (input: Vars, auth = admin) =>
    (await call(CREATE, { input }, auth)).createCanale as Created;

  beforeAll(async () => {
    ({ hosted, close } = await hostCanali());
    const tenantId = newTenantId();
    admin = `Bearer ${await mintToken({ tenantId, admin: true })}`;
    staff = `Bearer ${await mintToken({ tenantId })}`;
  });
  afterAll(() => close());

  it('an administrator creates a channel: both names, canonical origins, and its key once', async () => {
    const created = await create({
      nome: '  Sito ',
      origini: ['https://Example.com:443', 'http://localhost:8080'],
    });
    expect(created).toMatchObject({
      nome: 'Sito',
      name: 'Sito',
      origini: ['https://example.com', 'http://localhost:8080'],
      origins: ['https://example.com', 'http://localhost:8080'],
    });
    expect(created.key).toBe(created.chiave);
    const listed = (await call(LIST, {}, admin)).canali as Array<Record<string, unknown>>;
    const mine = listed.find((c) => c.id === created.id);
    expect(mine).toEqual({
      id: created.id,
      nome: 'Sito',
      name: 'Sito',
      origini: created.origini,
      origins: created.origini,
      createdAt: created.createdAt,
    });
  });

  it('English names win over Italian ones', async () => {
    const created = await create({
      nome: 'Italiano',
      name: 'English',
      origini: ['https://a.it'],
      origins: [],
    });
    expect(created).toMatchObject({ nome: 'English', origini: [] });
  });

  it('names every bad field at once, as sent', async () => {
    const error = await refusal(
      create({ name: ' ', origins: ['ftp://x', 'https://ok.it', 'https://x.it/path'] }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect((error.details as { fields: Array<{ field: string }> }).fields.map((i) => i.field)).toEqual([
      'name',
      'origins[0]',
      'origins[2]',
    ]);
    const missing = await refusal(create({ origini: [] }));
    expect((missing.details as { fields: Array<{ field: string }> }).fields.map((i) => i.field)).toEqual([
      'nome',
    ]);
  });

  it('staff who are not administrators, and channel keys, may not manage channels', async () => {
    const { key, id } = await create({ name: 'Partner' });
    for (const auth of [staff, `Bearer ${key}`]) {
      expect((await refusal(create({ name: 'x' }, auth))).code).toBe('FORBIDDEN');
      expect((await refusal(call(LIST, {}, auth))).code).toBe('FORBIDDEN');
      expect((await refusal(call(DELETE, { id }, auth))).code).toBe('FORBIDDEN');
    }
    expect((await refusal(call(CURRENT, {}, staff))).code).toBe('FORBIDDEN');
  });

  it("a channel's key names its channel until the channel is deleted, then it is refused with 401", async () => {
    const { key, id } = await create({ name: 'Widget' });
    expect((await call(CURRENT, {}, `Bearer ${key}`)).canaleCorrente).toEqual({ id, nome: 'Widget' });
    expect((await call(DELETE, { id }, admin)).deleteCanale).toEqual({ id, deleted: true });
    expect((await refusal(call(CURRENT, {}, `Bearer ${key}`))).code).toBe('UNAUTHENTICATED');
    expect((await refusal(call(DELETE, { id }, admin))).code).toBe('NOT_FOUND');
    const listed = (await call(LIST, {}, admin)).canali as Array<{ id: string }>;
    expect(listed.map((c) => c.id)).not.toContain(id);
  });

  it('another process learns of the deletion by asking canali with the key (askingCanali)', async () => {
    const { key, id } = await create({ name: 'Remote' });
    const { tenantId } = await createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }).verify(
      admin.slice('Bearer '.length),
    );
    const elsewhere = askingCanali(hosted.client);
    expect(await elsewhere.isActive(tenantId, id, key)).toBe(true);
    await call(DELETE, { id }, admin);
    expect(await elsewhere.isActive(tenantId, id, key)).toBe(false);
  });

  it("keeps tenants apart: another tenant's administrator neither sees nor deletes the channel", async () => {
    const { id } = await create({ name: 'Mine' });
    const other = `Bearer ${await mintToken({ tenantId: newTenantId(), admin: true })}`;
    expect((await call(LIST, {}, other)).canali).toEqual([]);
    expect((await refusal(call(DELETE, { id }, other))).code).toBe('NOT_FOUND');
    const listed = (await call(LIST, {}, admin)).canali as Array<{ id: string }>;
    expect(listed.map((c) => c.id)).toContain(id);
  });
});
