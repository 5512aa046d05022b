import type { ServiceTokenIssuer } from '@coperto/auth';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import { CanaleService } from './canale-service.js';
import { CanaleStore } from './canale-store.js';
import { GoogleService } from './google/google-service.js';

export type CanaliDeps = SubgraphDeps;

export interface CanaliContext {
  canali: CanaleService;
  google: GoogleService;
}

export async function createCanaliContext(
  deps: CanaliDeps & { serviceTokens: ServiceTokenIssuer },
  request: SubgraphRequest,
): Promise<CanaliContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const now = deps.now ?? (() => new Date());
  return {
    google: new GoogleService({ store: deps.store, viewer, now }),
    canali: new CanaleService({
      store: new CanaleStore(deps.store.forTenant(viewer.tenantId)),
      viewer,
      serviceTokens: deps.serviceTokens,
      now,
    }),
  };
}
