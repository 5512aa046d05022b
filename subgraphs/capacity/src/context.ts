import DataLoader from 'dataloader';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import type { CategoryRecord } from './category-record.js';
import { CategoryService } from './category-service.js';
import { CategoryStore } from './category-store.js';
import { SlotConfigService } from './slot-config-service.js';
import { SlotConfigStore } from './slot-config-store.js';
import { SlotService } from './slot-service.js';

export type CapacityDeps = SubgraphDeps;

export interface CapacityContext {
  slotConfig: SlotConfigService;
  categories: CategoryService;
  slots: SlotService;
  /** Batches `_entities` references: one store query per request for N categories. */
  categoryById: DataLoader<string, CategoryRecord | null>;
}

export async function createCapacityContext(
  deps: CapacityDeps,
  request: SubgraphRequest,
): Promise<CapacityContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const tenantStore = deps.store.forTenant(viewer.tenantId);
  const categoryStore = new CategoryStore(tenantStore);
  const now = deps.now ?? (() => new Date());
  const slotConfig = new SlotConfigService({
    store: new SlotConfigStore(tenantStore),
    viewer,
    timeZone: deps.timeZone,
    now,
    onEventsWritten: deps.onEventsWritten,
  });
  const categories = new CategoryService({ store: categoryStore, viewer, now });
  return {
    slotConfig,
    categories,
    slots: new SlotService({
      config: slotConfig,
      categories,
      viewer,
      subgraphs: deps.subgraphs,
      timeZone: deps.timeZone,
    }),
    categoryById: new DataLoader(async (ids) => {
      const found = new Map((await categoryStore.findByIds(ids)).map((c) => [c.id, c]));
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}
