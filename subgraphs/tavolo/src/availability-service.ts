import type { Viewer } from '@coperto/auth';
import { DEFAULT_MEAL_DURATION_MINUTES, InputChecks, parseRestaurantDateTime } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import { availableTables, type BookedSlot } from './availability.js';
import type { DisponibilitaInput } from './generated/resolvers-types.js';
import type { TavoloRecord } from './tavolo-record.js';
import type { TavoloStore } from './tavolo-store.js';

/**
 * DisponibilitaInput.durataMediaPasto in minutes, documented in schema.graphql and the REST facade from these.
 * The same figures as capacity's default meal duration and its range (test/domain-values.test.ts).
 */
export const DURATA_MEDIA_PASTO_MINUTES = {
  min: 1,
  max: 720,
  default: DEFAULT_MEAL_DURATION_MINUTES,
} as const;

/**
 * prenotazione's window query: the candidate tables held during [from, to), each hold with its booking's
 * stored effective duration (prenotazione reads them from the tables' agendas by id, not the whole day).
 */
const HOLDS_IN_WINDOW = /* GraphQL */ `
  query OccupazioniTavoli($from: String!, $to: String!, $tableIds: [ID!]!) {
    occupazioniTavoli(from: $from, to: $to, tableIds: $tableIds) {
      tableId
      startsAt
      endsAt
    }
  }
`;

interface Hold {
  tableId: string;
  startsAt: string;
  endsAt: string;
}

/**
 * verifica-disponibilita: one query for the candidate tables, then one window query to prenotazione for those
 * tables, whatever the number of tables and bookings. A booking of the evening before that runs past midnight
 * is found like any other: its hold overlaps the window.
 */
export class AvailabilityService {
  constructor(
    private readonly deps: {
      store: TavoloStore;
      viewer: Viewer;
      subgraphs: SubgraphClient;
      timeZone: string;
    },
  ) {}

  async check(input: DisponibilitaInput): Promise<{ tables: TavoloRecord[]; totalCapacity: number }> {
    const durationMinutes = input.durataMediaPasto ?? DURATA_MEDIA_PASTO_MINUTES.default;
    const checks = new InputChecks()
      .intInRange('numeroPersone', input.numeroPersone, 1, 1000)
      .intInRange(
        'durataMediaPasto',
        durationMinutes,
        DURATA_MEDIA_PASTO_MINUTES.min,
        DURATA_MEDIA_PASTO_MINUTES.max,
      );
    const start = parseRestaurantDateTime(input.dataOra, this.deps.timeZone);
    if (!start) checks.add('dataOra', 'must be an ISO 8601 date-time');
    checks.throwIfAny();
    const end = new Date(start!.getTime() + durationMinutes * 60_000);

    const tables = await this.deps.store.list({
      attivo: true,
      capacitaMin: input.numeroPersone,
      salaId: input.salaId ?? null,
    });
    const bookings = await this.holdsDuring(
      start!,
      end,
      tables.map((t) => t.id),
    );
    return availableTables(tables, { start: start!, end, partySize: input.numeroPersone }, bookings);
  }

  private async holdsDuring(start: Date, end: Date, tableIds: string[]): Promise<BookedSlot[]> {
    if (tableIds.length === 0) return [];
    const { occupazioniTavoli } = await this.deps.subgraphs.request<{ occupazioniTavoli: Hold[] }>(
      'prenotazione',
      HOLDS_IN_WINDOW,
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
