import type { Viewer } from '@coperto/auth';
import {
  DEFAULT_MEAL_DURATION_MINUTES,
  InputChecks,
  parseRestaurantDateTime,
  turnMinutes,
} from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import {
  availableCombinations,
  availableTables,
  candidateTableIds,
  type BookedSlot,
} from './availability.js';
import type { CombinazioneRecord } from '../combinations/combinazione-record.js';
import type { CombinazioneStore } from '../combinations/combinazione-store.js';
import type { DisponibilitaInput } from '../generated/resolvers-types.js';
import { OccupazioniTavoliDocument } from '../generated/prenotazione-calls.js';
import { activeTablesFitting, tablesById, type TableDirectory } from './table-directory.js';
import { withActiveLock, type TavoloRecord } from '../tables/tavolo-record.js';
import type { TurnTimeConfig } from './turn-time-config.js';

/**
 * DisponibilitaInput.durataMediaPasto in minutes, documented in schema.graphql and the REST facade from these.
 * The same figures as capacity's default meal duration and its range (test/domain-values.test.ts). Without
 * it, the window is the party's turn time (capacity's turnTimes, else its defaultMealMinutes).
 */
export const DURATA_MEDIA_PASTO_MINUTES = {
  min: 1,
  max: 720,
  default: DEFAULT_MEAL_DURATION_MINUTES,
} as const;

export interface Availability {
  tables: TavoloRecord[];
  totalCapacity: number;
  combinations: CombinazioneRecord[];
}

/**
 * verifica-disponibilita: the tenant's table directory (held per process under the version of the tenant's
 * tables, reloaded with one query after a table write: TenantTableDirectories), one query for the active
 * combinations, then one window query to prenotazione for the candidate tables (single tables big enough and
 * the tables of the combinations that hold the party), whatever the number of tables and bookings. With a
 * `salaId`, only that room's tables are read from the directory: the work grows with the room, not with the
 * restaurant. A booking of the evening before that runs past midnight is found like any other: its hold
 * overlaps the window.
 */
export class AvailabilityService {
  constructor(
    private readonly deps: {
      /** The tenant's tables, current as of the last acknowledged table write. */
      tables: () => Promise<TableDirectory>;
      combinations: CombinazioneStore;
      /** The clock an answer's locks are shown against (an expired lock shows as none, as in every table read). */
      now: () => Date;
      viewer: Viewer;
      subgraphs: SubgraphClient;
      timeZone: string;
      /** The tenant's turn times (capacity's slotConfig, cached per tenant). */
      turnTimes: () => Promise<TurnTimeConfig>;
    },
  ) {}

  async check(input: DisponibilitaInput): Promise<Availability> {
    const checks = new InputChecks()
      .intInRange('numeroPersone', input.numeroPersone, 1, 1000)
      .intInRange(
        'durataMediaPasto',
        input.durataMediaPasto,
        DURATA_MEDIA_PASTO_MINUTES.min,
        DURATA_MEDIA_PASTO_MINUTES.max,
      );
    const start = parseRestaurantDateTime(input.dataOra, this.deps.timeZone);
    if (!start) checks.add('dataOra', 'must be an ISO 8601 date-time');
    checks.throwIfAny();
    const durationMinutes = input.durataMediaPasto ?? (await this.turnMinutesOf(input.numeroPersone));
    const window = {
      start: start!,
      end: new Date(start!.getTime() + durationMinutes * 60_000),
      partySize: input.numeroPersone,
    };

    const salaId = input.salaId ?? null;
    const [directory, fitting] = await Promise.all([
      this.deps.tables(),
      this.deps.combinations.list({ attivo: true, salaId }),
    ]);
    const tables = activeTablesFitting(directory, salaId, input.numeroPersone);
    const combinations = fitting.filter(
      (c) => c.capacitaMin <= window.partySize && window.partySize <= c.capacitaMax,
    );
    const members = memberTables(directory, combinations, tables);
    const bookings = await this.holdsDuring(
      window.start,
      window.end,
      candidateTableIds([...tables, ...members], combinations, window.partySize),
    );
    const free = availableTables(tables, window, bookings);
    const now = this.deps.now();
    return {
      tables: free.tables.map((t) => withActiveLock(t, now)),
      totalCapacity: free.totalCapacity,
      combinations: availableCombinations(combinations, [...tables, ...members], window, bookings),
    };
  }

  /** The party's turn time: the figure prenotazione stores with a booking that has no duration of its own. */
  private async turnMinutesOf(covers: number): Promise<number> {
    const config = await this.deps.turnTimes();
    return turnMinutes(config.turnTimes, covers, config.defaultMealMinutes);
  }

  private async holdsDuring(start: Date, end: Date, tableIds: string[]): Promise<BookedSlot[]> {
    if (tableIds.length === 0) return [];
    const { occupazioniTavoli } = await this.deps.subgraphs.request(
      'prenotazione',
      OccupazioniTavoliDocument,
      { from: start.toISOString(), to: end.toISOString(), tableIds },
      `Bearer ${this.deps.viewer.token}`,
    );
    return occupazioniTavoli.map((h) => ({
      tableId: h.tableId,
      start: new Date(h.startsAt),
      end: new Date(h.endsAt),
    }));
  }
}

/** The combinations' tables not already among the single candidates (from the directory: no query). */
function memberTables(
  directory: TableDirectory,
  combinations: readonly CombinazioneRecord[],
  read: readonly TavoloRecord[],
): TavoloRecord[] {
  const have = new Set(read.map((t) => t.id));
  const missing = [...new Set(combinations.flatMap((c) => c.tableIds))].filter((id) => !have.has(id));
  return tablesById(directory, missing);
}
