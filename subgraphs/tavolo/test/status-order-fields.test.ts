import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import type { SubgraphClient } from '@coperto/server-kit';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { TavoloService } from '../src/tables/tavolo-service.js';
import { TavoloStore } from '../src/tables/tavolo-store.js';

/** A table's order fields (orderId, pax, totalAmount) through status changes, stored in the embedded store. */
describe('the order fields of a table’s party (TavoloService.setStatus, embedded store)', () => {
  let dir: string;
  let store: DocumentStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tavolo-order-fields-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const service = () => {
    const tenantId = trustedTenantId(`t_${randomBytes(5).toString('hex')}`);
    const viewer: Viewer = { tenantId, subject: null, roles: [], isAdmin: true, token: 'unused' };
    return new TavoloService({
      store: new TavoloStore(store.forTenant(tenantId)),
      viewer,
      subgraphs: {} as SubgraphClient,
      now: () => new Date(),
      onEventsWritten: () => {},
      onTablesChanged: async () => {},
      onTableDeleted: async () => {},
    });
  };
  const fields = (t: { orderId: string | null; pax: number | null; totalAmount: number | null }) => ({
    orderId: t.orderId,
    pax: t.pax,
    totalAmount: t.totalAmount,
  });

  it('keeps them through one party’s turn', async () => {
    const tables = service();
    const { id } = await tables.create({ name: 'T1', seats: 4 });
    await tables.setStatus(id, { status: 'occupied', pax: 3, orderId: 'o-1' });
    await tables.setStatus(id, { status: 'open' });
    const paying = await tables.setStatus(id, { status: 'payment_pending', totalAmount: 84.5 });
    expect(fields(paying)).toEqual({ orderId: 'o-1', pax: 3, totalAmount: 84.5 });
    expect(fields(await tables.setStatus(id, { status: 'occupied' }))).toEqual(fields(paying));
  });

  // Found by the generated service days (test/properties/service-day.e2e.test.ts): a party seated at a table left
  // `dirty` (not cleaned to `free` first) took the previous party's pax, so the report counted those covers as a
  // walk-in's; a bill would have been credited again the same way.
  it('starts them afresh when a party sits at a table left dirty or reserved (regression)', async () => {
    const tables = service();
    const { id } = await tables.create({ name: 'T2', seats: 4 });
    await tables.setStatus(id, { status: 'occupied', pax: 5, orderId: 'o-1' });
    await tables.setStatus(id, { status: 'payment_pending', totalAmount: 120 });
    expect(fields(await tables.setStatus(id, { status: 'dirty' }))).toEqual({
      orderId: 'o-1',
      pax: 5,
      totalAmount: 120,
    });
    const next = await tables.setStatus(id, { status: 'occupied' });
    expect(fields(next)).toEqual({ orderId: null, pax: null, totalAmount: null });
    await tables.setStatus(id, { status: 'reserved', pax: 2 });
    expect(fields(await tables.setStatus(id, { status: 'occupied', orderId: 'o-2' }))).toEqual({
      orderId: 'o-2',
      pax: null,
      totalAmount: null,
    });
  });
});
