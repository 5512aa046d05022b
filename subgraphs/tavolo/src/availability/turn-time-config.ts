import type { TurnTime } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import { TavoloTurnTimesDocument } from '../generated/capacity-calls.js';

export interface TurnTimeConfig {
  defaultMealMinutes: number;
  turnTimes: TurnTime[];
}

/** How long a tenant's turn times are reused before asking capacity again (as prenotazione's meal minutes). */
export const TURN_TIMES_TTL_MS = 10_000;

/**
 * The tenant's turn times and default meal duration (capacity's `slotConfig`), asked through capacity's GraphQL
 * API with the caller's token and kept TURN_TIMES_TTL_MS per tenant (one per process, shared by requests). The
 * availability check turns them into a window with `turnMinutes`, as prenotazione does for a booking's duration.
 */
export class TenantTurnTimes {
  private readonly cached = new Map<string, { config: Promise<TurnTimeConfig>; until: number }>();

  constructor(
    private readonly subgraphs: SubgraphClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get(tenantId: string, token: string): Promise<TurnTimeConfig> {
    const at = this.now().getTime();
    const hit = this.cached.get(tenantId);
    if (hit && hit.until > at) return hit.config;
    const config = this.subgraphs
      .request('capacity', TavoloTurnTimesDocument, {}, `Bearer ${token}`)
      .then((r) => r.slotConfig);
    this.cached.set(tenantId, { config, until: at + TURN_TIMES_TTL_MS });
    config.catch(() => {
      if (this.cached.get(tenantId)?.config === config) this.cached.delete(tenantId);
    });
    if (this.cached.size > 10_000) this.cached.delete(this.cached.keys().next().value!);
    return config;
  }
}
