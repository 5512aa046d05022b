import { describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { bumpReadScope, createMemoryCache } from '@coperto/cache';
import { activeTablesFitting, tableDirectory, tablesById } from '../src/availability/table-directory.js';
import type { TavoloRecord } from '../src/tables/tavolo-record.js';
import { TAVOLI_COLLECTION } from '../src/tables/tavolo-store.js';
import { TenantTableDirectories } from '../src/availability/tenant-table-directories.js';

const table = (id: string, salaId: string | null, capacita: number, attivo = true): TavoloRecord => ({
  id,
  nome: id,
  capacita,
  stato: 'free',
  salaId,
  attivo,
  posizione: null,
  orderId: null,
  pax: null,
  totalAmount: null,
  lock: null,
  version: 1,
  createdAt: '2027-01-01T00:00:00.000Z',
  updatedAt: '2027-01-01T00:00:00.000Z',
});

describe('table directory', () => {
  const tables = [
    table('a', 'r1', 2),
    table('b', 'r2', 4),
    table('c', null, 6),
    table('d', 'r1', 6),
    table('e', 'r1', 8, false),
  ];
  const directory = tableDirectory(tables);

  it('lists the active tables big enough, of one room or all, in list order', () => {
    const ids = (salaId: string | null, seats: number) =>
      activeTablesFitting(directory, salaId, seats).map((t) => t.id);
    expect(ids(null, 1)).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(null, 5)).toEqual(['c', 'd']);
    expect(ids('r1', 1)).toEqual(['a', 'd']);
    expect(ids('r1', 7)).toEqual([]); // e is big enough but inactive
    expect(ids('r2', 4)).toEqual(['b']);
    expect(ids('unknown', 1)).toEqual([]);
  });

  it('finds tables by id whatever their state, skipping unknown ids', () => {
    expect(tablesById(directory, ['e', 'x', 'a']).map((t) => t.id)).toEqual(['e', 'a']);
  });
});

describe('per-tenant table directories', () => {
  const tenant = trustedTenantId('t1');

  it('reuses a directory while the tables are unchanged and reloads it at once after a write', async () => {
    const cache = createMemoryCache();
    const tenantCache = cache.forTenant(tenant);
    const directories = new TenantTableDirectories();
    let stored = [table('a', 'r1', 2)];
    let loads = 0;
    const listAll = async () => {
      loads++;
      return stored;
    };
    const ids = async () => [...(await directories.get(tenant, tenantCache, listAll)).byId.keys()];
    expect(await ids()).toEqual(['a']);
    expect(await ids()).toEqual(['a']);
    expect(loads).toBe(1);
    stored = [...stored, table('b', 'r1', 4)];
    await bumpReadScope(tenantCache, TAVOLI_COLLECTION); // what every table write does before answering
    expect(await ids()).toEqual(['a', 'b']);
    expect(loads).toBe(2);
    await cache.close();
  });

  it('keeps tenants apart, shares one load among concurrent misses and holds a bounded number of tenants', async () => {
    const cache = createMemoryCache();
    const directories = new TenantTableDirectories(2);
    let loads = 0;
    const of = (name: string) =>
      directories.get(trustedTenantId(name), cache.forTenant(trustedTenantId(name)), async () => {
        loads++;
        return [table(`${name}-table`, null, 2)];
      });
    // after a write (the tables have a version): concurrent misses of that version share one load
    await bumpReadScope(cache.forTenant(tenant), TAVOLI_COLLECTION);
    const burst = await Promise.all([of('t1'), of('t1'), of('t1')]);
    expect(loads).toBe(1);
    expect(burst.every((d) => d === burst[0])).toBe(true);
    expect([...(await of('t2')).byId.keys()]).toEqual(['t2-table']);
    expect(loads).toBe(2);
    await of('t3');
    expect(directories.size).toBe(2);
    await of('t1'); // dropped as least recently used: loaded again
    expect(loads).toBe(4);
    // t1 (3 checks, one load), t2, t3, t1 again: t1 and t2 dropped for the bound.
    expect(directories.stats()).toEqual({ entries: 2, capacity: 2, evictions: 2, hits: 0, misses: 6 });
    await cache.close();
  });

  it('reads the store every time while the cache is unreachable (no version to trust)', async () => {
    const cache = createMemoryCache();
    const tenantCache = cache.forTenant(tenant);
    await cache.close();
    const directories = new TenantTableDirectories();
    let loads = 0;
    const listAll = async () => {
      loads++;
      return [table('a', null, 2)];
    };
    await directories.get(tenant, tenantCache, listAll);
    await directories.get(tenant, tenantCache, listAll);
    expect(loads).toBe(2);
  });
});
