import DataLoader from 'dataloader';
import { bumpReadScope, READ_SCOPES } from '@coperto/cache';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import { AvailabilityService } from './availability/availability-service.js';
import type { CombinazioneRecord } from './combinations/combinazione-record.js';
import { CombinazioneService } from './combinations/combinazione-service.js';
import { CombinazioneStore } from './combinations/combinazione-store.js';
import { withActiveLock, type TavoloRecord } from './tables/tavolo-record.js';
import { TavoloService } from './tables/tavolo-service.js';
import { TavoloStore } from './tables/tavolo-store.js';
import type { TenantTableDirectories } from './availability/tenant-table-directories.js';
import type { TenantTurnTimes } from './availability/turn-time-config.js';

export type TavoloDeps = SubgraphDeps;

export interface TavoloContext {
  tavoli: TavoloService;
  availability: AvailabilityService;
  combinazioni: CombinazioneService;
  now: () => Date;
  /** Batches `_entities` references: one store query per request for N tables. */
  tavoloById: DataLoader<string, TavoloRecord | null>;
  /** Tables of N rooms (Sala.tavoli) in one store query. */
  tavoliBySala: DataLoader<string, TavoloRecord[]>;
  /** Batches `_entities` references of combinations. */
  combinazioneById: DataLoader<string, CombinazioneRecord | null>;
}

/** What the subgraph keeps per process, shared by every request: per-tenant caches. */
export interface TavoloShared {
  turnTimes: TenantTurnTimes;
  tableDirectories: TenantTableDirectories;
}

export async function createTavoloContext(
  deps: TavoloDeps,
  request: SubgraphRequest,
  shared: TavoloShared,
): Promise<TavoloContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const tenantStore = deps.store.forTenant(viewer.tenantId);
  const store = new TavoloStore(tenantStore);
  const combinationStore = new CombinazioneStore(tenantStore);
  const now = deps.now ?? (() => new Date());
  const cache = deps.cache.forTenant(viewer.tenantId);
  const combinazioni = new CombinazioneService({ store: combinationStore, tables: store, viewer, now });
  return {
    now,
    tavoli: new TavoloService({
      store,
      viewer,
      subgraphs: deps.subgraphs,
      now,
      onEventsWritten: deps.onEventsWritten,
      // Invalidates the gateway's cached table reads and every process's table directory (availability).
      onTablesChanged: () => bumpReadScope(cache, READ_SCOPES.tables),
      onTableDeleted: (tableId) => combinazioni.removeTable(tableId),
    }),
    availability: new AvailabilityService({
      tables: () => shared.tableDirectories.get(viewer.tenantId, cache, () => store.list({})),
      combinations: combinationStore,
      now,
      viewer,
      subgraphs: deps.subgraphs,
      timeZone: deps.timeZone,
      turnTimes: () => shared.turnTimes.get(viewer.tenantId, viewer.token),
    }),
    combinazioni,
    tavoloById: new DataLoader(async (ids) => {
      const found = new Map((await store.findByIds(ids)).map((t) => [t.id, withActiveLock(t, now())]));
      return ids.map((id) => found.get(id) ?? null);
    }),
    tavoliBySala: new DataLoader(async (salaIds) => {
      const tables = await store.listInRooms(salaIds);
      return salaIds.map((salaId) =>
        tables.filter((t) => t.salaId === salaId).map((t) => withActiveLock(t, now())),
      );
    }),
    combinazioneById: new DataLoader(async (ids) => {
      const found = new Map((await combinationStore.findByIds(ids)).map((c) => [c.id, c]));
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}
