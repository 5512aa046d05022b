import { ForbiddenError } from '@coperto/errors';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import { HistoryService } from './history.js';
import { RapportiStore } from './rapporti-store.js';
import { ReportService } from './report-service.js';

export type RapportiDeps = SubgraphDeps;

export interface RapportiContext {
  history: HistoryService;
  reports: ReportService;
}

export async function createRapportiContext(
  deps: RapportiDeps,
  request: SubgraphRequest,
): Promise<RapportiContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  // Histories and reports are staff data: a channel key or a guest token (a grant the service issued) reads none.
  if (viewer.grant) throw new ForbiddenError('Reports are for staff only');
  const store = new RapportiStore(deps.store.forTenant(viewer.tenantId));
  const now = deps.now ?? (() => new Date());
  return {
    history: new HistoryService(store),
    reports: new ReportService({ store, viewer, subgraphs: deps.subgraphs, now }),
  };
}
