import type { TurnTime } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import { PrenotazioneSeatingConfigDocument } from '../generated/capacity-calls.js';
import {
  PrenotazioneActiveCombinationsDocument,
  PrenotazioneActiveTablesDocument,
  PrenotazioneCombinationDocument,
} from '../generated/tavolo-calls.js';

/** capacity's seating settings (slotConfig), the only ones prenotazione needs. */
export interface SeatingConfig {
  turnTimes: TurnTime[];
  defaultMealMinutes: number;
  /** Whether future auto-assigned bookings may be moved to place a party. */
  reseat: boolean;
  /** Auto-assigned bookings starting within this many minutes of now are never moved. */
  reseatFreezeMinutes: number;
}

/** An active table as assignment needs it (tavolo's Tavolo). */
export interface SeatingTable {
  id: string;
  seats: number;
  salaId: string | null;
}

/** A combination of tables booked as a unit (tavolo's Combinazione). */
export interface SeatingCombination {
  id: string;
  tableIds: string[];
  salaId: string | null;
  minCovers: number;
  maxCovers: number;
  attivo: boolean;
}

/**
 * What prenotazione reads from the other subgraphs to seat a party, behind one small interface: the real one
 * asks tavolo and capacity with the caller's token (createSeatingSources); tests inject their own.
 */
export interface SeatingSources {
  config(): Promise<SeatingConfig>;
  /** Active single tables of the tenant. */
  activeTables(): Promise<SeatingTable[]>;
  /** Active combinations of the tenant. */
  activeCombinations(): Promise<SeatingCombination[]>;
  /** One combination of the tenant (active or not), null when unknown. */
  combination(id: string): Promise<SeatingCombination | null>;
}

/** How long a tenant's seating settings are reused before asking capacity again. */
export const SEATING_CONFIG_TTL_MS = 10_000;

/**
 * The tenant's seating settings (capacity `slotConfig`), asked with the caller's token and kept
 * SEATING_CONFIG_TTL_MS per tenant (one cache per process, shared by requests), so a batch of 500 bookings asks
 * once. A change in capacity applies to bookings created or moved after the TTL; existing bookings keep the
 * effective duration stored with them.
 */
export class SeatingConfigCache {
  private readonly cached = new Map<string, { config: Promise<SeatingConfig>; until: number }>();

  constructor(
    private readonly subgraphs: SubgraphClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get(tenantId: string, token: string): Promise<SeatingConfig> {
    const at = this.now().getTime();
    const hit = this.cached.get(tenantId);
    if (hit && hit.until > at) return hit.config;
    const config = this.subgraphs
      .request('capacity', PrenotazioneSeatingConfigDocument, {}, `Bearer ${token}`)
      .then((r) => r.slotConfig);
    this.cached.set(tenantId, { config, until: at + SEATING_CONFIG_TTL_MS });
    config.catch(() => {
      if (this.cached.get(tenantId)?.config === config) this.cached.delete(tenantId);
    });
    if (this.cached.size > 10_000) this.cached.delete(this.cached.keys().next().value!);
    return config;
  }
}

/** The real sources: tavolo and capacity through their GraphQL APIs, with the caller's token. */
export function createSeatingSources(options: {
  subgraphs: SubgraphClient;
  configCache: SeatingConfigCache;
  tenantId: string;
  token: string;
}): SeatingSources {
  const { subgraphs, token } = options;
  const authorization = `Bearer ${token}`;
  return {
    config: () => options.configCache.get(options.tenantId, token),
    activeTables: async () =>
      (await subgraphs.request('tavolo', PrenotazioneActiveTablesDocument, {}, authorization)).tavoli,
    activeCombinations: async () =>
      (await subgraphs.request('tavolo', PrenotazioneActiveCombinationsDocument, {}, authorization))
        .combinazioni,
    combination: async (id) =>
      (await subgraphs.request('tavolo', PrenotazioneCombinationDocument, { id }, authorization))
        .combinazione,
  };
}
