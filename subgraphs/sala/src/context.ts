import DataLoader from 'dataloader';
import { bumpReadScope, READ_SCOPES } from '@coperto/cache';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import type { SalaRecord } from './sala-record.js';
import { SalaService } from './sala-service.js';
import { SalaStore } from './sala-store.js';

export type SalaDeps = SubgraphDeps;

export interface SalaContext {
  sale: SalaService;
  /** Batches `_entities` references: one store query per request for N rooms. */
  salaById: DataLoader<string, SalaRecord | null>;
}

export async function createSalaContext(deps: SalaDeps, request: SubgraphRequest): Promise<SalaContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const store = new SalaStore(deps.store.forTenant(viewer.tenantId));
  const cache = deps.cache.forTenant(viewer.tenantId);
  return {
    sale: new SalaService({
      store,
      viewer,
      subgraphs: deps.subgraphs,
      now: deps.now ?? (() => new Date()),
      // Invalidates the gateway's cached reads of rooms (its GraphQL read cache).
      onRoomsChanged: () => bumpReadScope(cache, READ_SCOPES.rooms),
    }),
    salaById: new DataLoader(async (ids) => {
      const found = new Map((await store.findByIds(ids)).map((s) => [s.id, s]));
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}
