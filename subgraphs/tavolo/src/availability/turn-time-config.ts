import { createKeptLoads } from '@coperto/async';
import type { TurnTime } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import { TavoloTurnTimesDocument } from '../generated/capacity-calls.js';

export interface TurnTimeConfig {
  defaultMealMinutes: number;
  turnTimes: TurnTime[];
}

/** How long a tenant's turn times are reused before asking capacity again (as prenotazione's meal minutes). */
export const TURN_TIMES_TTL_MS = 10_000;
/** Tenants whose turn times one process keeps (the least recently used is dropped beyond it). */
const MAX_TENANTS_KEPT = 10_000;

/**
 * The tenant's turn times and default meal duration (capacity's `slotConfig`), asked through capacity's GraphQL
 * API with the caller's token and kept TURN_TIMES_TTL_MS per tenant (one per process, shared by requests). The
 * availability check turns them into a window with `turnMinutes`, as prenotazione does for a booking's duration.
 */
export class TenantTurnTimes {
  private readonly kept;

  constructor(
    private readonly subgraphs: SubgraphClient,
    now: () => Date = () => new Date(),
  ) {
    this.kept = createKeptLoads<TurnTimeConfig>({
      ttlMs: TURN_TIMES_TTL_MS,
      maxKeys: MAX_TENANTS_KEPT,
      now: () => now().getTime(),
    });
  }

  /** Tenants kept, the bound, evictions, reads answered from a kept value or not. */
  stats() {
    return this.kept.stats();
  }

  get(tenantId: string, token: string): Promise<TurnTimeConfig> {
    return this.kept.get(tenantId, async () => {
      const answer = await this.subgraphs.request('capacity', TavoloTurnTimesDocument, {}, `Bearer ${token}`);
      return answer.slotConfig;
    });
  }
}
