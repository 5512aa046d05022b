import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import { BatchService } from './batch-service.js';
import { BatchStore } from './batch-store.js';

export type BookingsDeps = SubgraphDeps;

export interface BookingsContext {
  batches: BatchService;
}

export async function createBookingsContext(
  deps: BookingsDeps,
  request: SubgraphRequest,
): Promise<BookingsContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const store = new BatchStore(deps.store.forTenant(viewer.tenantId));
  return {
    batches: new BatchService({
      store,
      viewer,
      subgraphs: deps.subgraphs,
      now: deps.now ?? (() => new Date()),
    }),
  };
}
