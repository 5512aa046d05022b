import { createKeptLoads } from '@coperto/async';
import { tenantOfSubject } from '@coperto/bus';
import { turnMinutes, type TurnTime } from '@coperto/domain';
import type { EventFollower, SubgraphClient } from '@coperto/server-kit';
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
  /** Active single tables of the tenant: of the room `salaId` only when given (tavolo's list order either way). */
  activeTables(salaId?: string): Promise<SeatingTable[]>;
  /** Active combinations of the tenant: of the room `salaId` only when given. */
  activeCombinations(salaId?: string): Promise<SeatingCombination[]>;
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

/**
 * How long a tenant's seating settings are reused at most. capacity announces every change
 * (`capacity.config.updated`), and each process forgets the tenant's settings when it hears it
 * (seatingConfigFollower), so this only bounds how long a change missed while the bus could not deliver it is used.
 */
export const SEATING_CONFIG_TTL_MS = 60 * 60_000;
/** Tenants whose settings one process keeps (the least recently used is dropped beyond it). */
const MAX_TENANTS_KEPT = 10_000;
/** The events that tell a change of capacity's settings, every tenant's. */
export const SEATING_CONFIG_EVENTS = 'tenant.*.restaurant.capacity.config.updated';

/**
 * The tenant's seating settings (capacity `slotConfig`), asked with the caller's token and kept per tenant (one
 * cache per process, shared by requests) until capacity announces a change, at most SEATING_CONFIG_TTL_MS, so a
 * batch of 500 bookings asks once and a tenant's next burst an hour later still finds them. A change applies to
 * bookings created or moved once its event has arrived (the outbox relay's latency, milliseconds); existing
 * bookings keep the effective duration stored with them.
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

  /** Forgets a tenant's settings (capacity changed them): its next booking asks again. */
  forget(tenantId: string): void {
    this.kept.delete(tenantId);
  }

  /** Forgets every tenant's (changes may have gone unheard). */
  forgetAll(): void {
    this.kept.clear();
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
    activeTables: async (salaId) =>
      (await subgraphs.request('tavolo', PrenotazioneActiveTablesDocument, { salaId }, authorization)).tavoli,
    activeCombinations: async (salaId) =>
      (await subgraphs.request('tavolo', PrenotazioneActiveCombinationsDocument, { salaId }, authorization))
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

/** Keeps a process's SeatingConfigCache current: a tenant's settings are forgotten when capacity changes them. */
export function seatingConfigFollower(cache: SeatingConfigCache): EventFollower {
  return {
    subject: SEATING_CONFIG_EVENTS,
    handle(_event, subject) {
      const tenant = tenantOfSubject(subject);
      if (tenant) cache.forget(tenant);
    },
    reset: () => cache.forgetAll(),
  };
}
