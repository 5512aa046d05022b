import type { TenantId } from '@coperto/auth';
import { createSingleFlight } from '@coperto/async';
import { READ_SCOPES, readScopeVersion, type TenantCache } from '@coperto/cache';
import { tableDirectory, type TableDirectory } from './table-directory.js';
import type { TavoloRecord } from '../tables/tavolo-record.js';

/** How many tenants' directories one process keeps (the least recently used one is dropped beyond it). */
export const TABLE_DIRECTORY_TENANTS = 1000;

/**
 * Each tenant's table directory, kept in this process under the version of the tenant's `tavoli` read scope,
 * the scope every table write replaces before it is acknowledged (TavoloService.onTablesChanged: in the shared
 * cache, Redis in distributed mode, so a write through any tavolo process is seen by all). Every read asks the
 * scope's version first (one cache get) and reuses the directory only if it was loaded under that version:
 * a table written is in the next check's answer, never a stale list. Loads of one tenant's version share one
 * store query.
 */
export class TenantTableDirectories {
  private readonly held = new Map<TenantId, { version: string; directory: TableDirectory }>();
  private readonly loads = createSingleFlight();
  private counts = { evictions: 0, hits: 0, misses: 0 };

  constructor(private readonly maxTenants = TABLE_DIRECTORY_TENANTS) {}

  async get(
    tenantId: TenantId,
    cache: TenantCache,
    listAll: () => Promise<TavoloRecord[]>,
  ): Promise<TableDirectory> {
    // The version is read before the tables: a list loaded after it holds every write acknowledged before it.
    const version = await readScopeVersion(cache, READ_SCOPES.tables);
    const hit = this.held.get(tenantId);
    if (hit?.version === version) {
      this.counts.hits += 1;
      this.held.delete(tenantId); // most recently used last
      this.held.set(tenantId, hit);
      return hit.directory;
    }
    this.counts.misses += 1;
    return this.loads.run(`${tenantId}\u0000${version}`, async () => {
      const directory = tableDirectory(await listAll());
      this.held.delete(tenantId);
      this.held.set(tenantId, { version, directory });
      if (this.held.size > this.maxTenants) {
        this.held.delete(this.held.keys().next().value!);
        this.counts.evictions += 1;
      }
      return directory;
    });
  }

  /** Tenants held now. */
  get size(): number {
    return this.held.size;
  }

  /** Tenants held, the bound, tenants dropped for it, checks answered from a held directory or not. */
  stats() {
    return { entries: this.held.size, capacity: this.maxTenants, ...this.counts };
  }
}
