import { createKeptLoads } from '@coperto/async';
import { turnMinutes, type TurnTime } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import { PrenotazioneSeatingConfigDocument } from '../generated/capacity-calls.js';
import {
  PrenotazioneActiveCombinationsDocument,
  PrenotazioneActiveTablesDocument,
  PrenotazioneCombinationDocument,
  TablesExistDocument,
} from '../generated/tavolo-calls.js';

/** capacity's seating settings (slotConfig), the only ones prenotazione needs. */
export interface SeatingConfig {
  turnTimes: TurnTime[];
  defaultMealMinutes: number;
  /** Whether future auto-assigned bookings may be moved to place a party. */
  reseat: boolean;
  /** Auto-assigned bookings starting within this many minutes of now are never moved. */
  reseatFreezeMinutes: number;
  /** Shortened seatings of at least this many minutes are offered by the availability search; null: never. */
  shortenedMinMinutes: number | null;
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
  /** Those of `tableIds` that are no table of the tenant (any state): one call for N tables. */
  unknownTables(tableIds: readonly string[]): Promise<string[]>;
}

/**
 * The stay to hold tables for: the party's own duration, else the turn time for its covers in the tenant's
 * settings now (read only when needed). Bookings store it as their effective duration; options hold for it.
 */
export async function stayMinutes(
  sources: SeatingSources,
  own: number | null | undefined,
  covers: number,
): Promise<number> {
  if (own != null) return own;
  const config = await sources.config();
  return turnMinutes(config.turnTimes, covers, config.defaultMealMinutes);
}

/** How long a tenant's seating settings are reused before asking capacity again. */
export const SEATING_CONFIG_TTL_MS = 10_000;
/** Tenants whose settings one process keeps (the least recently used is dropped beyond it). */
const MAX_TENANTS_KEPT = 10_000;

/**
 * The tenant's seating settings (capacity `slotConfig`), asked with the caller's token and kept
 * SEATING_CONFIG_TTL_MS per tenant (one cache per process, shared by requests), so a batch of 500 bookings asks
 * once. A change in capacity applies to bookings created or moved after the TTL; existing bookings keep the
 * effective duration stored with them.
 */
export class SeatingConfigCache {
  private readonly kept;

  constructor(
    private readonly subgraphs: SubgraphClient,
    now: () => Date = () => new Date(),
  ) {
    this.kept = createKeptLoads<SeatingConfig>({
      ttlMs: SEATING_CONFIG_TTL_MS,
      maxKeys: MAX_TENANTS_KEPT,
      now: () => now().getTime(),
    });
  }

  /** Tenants kept, the bound, evictions, reads answered from a kept value or not. */
  stats() {
    return this.kept.stats();
  }

  get(tenantId: string, token: string): Promise<SeatingConfig> {
    return this.kept.get(tenantId, async () => {
      const answer = await this.subgraphs.request(
        'capacity',
        PrenotazioneSeatingConfigDocument,
        {},
        `Bearer ${token}`,
      );
      return answer.slotConfig;
    });
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
    unknownTables: async (tableIds) => {
      const { _entities } = await subgraphs.request(
        'tavolo',
        TablesExistDocument,
        { representations: tableIds.map((id) => ({ __typename: 'Tavolo', id })) },
        authorization,
      );
      return tableIds.filter((_, i) => !_entities[i]);
    },
  };
}
