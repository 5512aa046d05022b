import type { SubgraphClient } from '@coperto/server-kit';

/** capacity's slot settings: the tenant's default meal duration (read by all staff). */
const DEFAULT_MEAL = /* GraphQL */ `
  query PrenotazioneDefaultMeal {
    slotConfig {
      defaultMealMinutes
    }
  }
`;

/** How long a tenant's default meal duration is reused before asking capacity again. */
export const MEAL_MINUTES_TTL_MS = 10_000;

/**
 * The tenant's default meal duration (capacity `slot_config.defaultMealMinutes`), asked through capacity's
 * GraphQL API with the caller's token and kept MEAL_MINUTES_TTL_MS per tenant (one per process, shared by
 * requests), so a batch of 500 bookings asks once. A change in capacity applies to bookings created or moved
 * after the TTL; existing bookings keep the figure stored with them.
 */
export class DefaultMealMinutes {
  private readonly cached = new Map<string, { minutes: Promise<number>; until: number }>();

  constructor(
    private readonly subgraphs: SubgraphClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get(tenantId: string, token: string): Promise<number> {
    const at = this.now().getTime();
    const hit = this.cached.get(tenantId);
    if (hit && hit.until > at) return hit.minutes;
    const minutes = this.subgraphs
      .request<{ slotConfig: { defaultMealMinutes: number } }>(
        'capacity',
        DEFAULT_MEAL,
        {},
        `Bearer ${token}`,
      )
      .then((r) => r.slotConfig.defaultMealMinutes);
    this.cached.set(tenantId, { minutes, until: at + MEAL_MINUTES_TTL_MS });
    minutes.catch(() => {
      if (this.cached.get(tenantId)?.minutes === minutes) this.cached.delete(tenantId);
    });
    if (this.cached.size > 10_000) this.cached.delete(this.cached.keys().next().value!);
    return minutes;
  }
}
