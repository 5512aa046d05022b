import DataLoader from 'dataloader';
import { bumpReadScope } from '@coperto/cache';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import { AvailabilityService } from './availability-service.js';
import { withActiveLock, type TavoloRecord } from './tavolo-record.js';
import { TavoloService } from './tavolo-service.js';
import { TAVOLI_COLLECTION, TavoloStore } from './tavolo-store.js';

export type TavoloDeps = SubgraphDeps;

export interface TavoloContext {
  tavoli: TavoloService;
  availability: AvailabilityService;
  now: () => Date;
  /** Batches `_entities` references: one store query per request for N tables. */
  tavoloById: DataLoader<string, TavoloRecord | null>;
  /** Tables of N rooms (Sala.tavoli) in one store query. */
  tavoliBySala: DataLoader<string, TavoloRecord[]>;
}

export async function createTavoloContext(
  deps: TavoloDeps,
  request: SubgraphRequest,
): Promise<TavoloContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const store = new TavoloStore(deps.store.forTenant(viewer.tenantId));
  const now = deps.now ?? (() => new Date());
  return {
    now,
    tavoli: new TavoloService({
      store,
      viewer,
      subgraphs: deps.subgraphs,
      now,
      onEventsWritten: deps.onEventsWritten,
      onTablesChanged: () => bumpReadScope(deps.cache.forTenant(viewer.tenantId), TAVOLI_COLLECTION),
    }),
    availability: new AvailabilityService({
      store,
      viewer,
      subgraphs: deps.subgraphs,
      timeZone: deps.timeZone,
    }),
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
  };
}
