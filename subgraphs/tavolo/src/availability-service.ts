import type { Viewer } from '@coperto/auth';
import {
  InputChecks,
  localDateOf,
  localDatesBetween,
  parseRestaurantDateTime,
  type SubgraphClient,
} from '@coperto/server-kit';
import { availableTables, type BookedSlot } from './availability.js';
import type { TavoloRecord } from './tavolo-record.js';
import type { TavoloStore } from './tavolo-store.js';

export interface AvailabilityInput {
  dataOra: string;
  numeroPersone: number;
  durataMediaPasto?: number | null;
  salaId?: string | null;
}

export const DEFAULT_MEAL_MINUTES = 120;
export const MAX_MEAL_MINUTES = 720;

/** prenotazione's day query (the interface's getPrenotazioniGiorno): active bookings of one local day. */
const BOOKINGS_OF_DAY = /* GraphQL */ `
  query PrenotazioniGiorno($data: String!) {
    prenotazioniGiorno(data: $data) {
      tableIds
      startsAt
      durationMinutes
    }
  }
`;

interface DayBooking {
  tableIds: string[];
  /** The booking's start as a UTC instant. */
  startsAt: string;
  durationMinutes: number | null;
}

/**
 * verifica-disponibilita: one query for the candidate tables and one day query per local day the window can
 * touch (a booking from the day before may run past midnight), whatever the number of tables and bookings.
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

  async check(input: AvailabilityInput): Promise<{ tables: TavoloRecord[]; totalCapacity: number }> {
    const durationMinutes = input.durataMediaPasto ?? DEFAULT_MEAL_MINUTES;
    const checks = new InputChecks()
      .intInRange('numeroPersone', input.numeroPersone, 1, 1000)
      .intInRange('durataMediaPasto', durationMinutes, 1, MAX_MEAL_MINUTES);
    const start = parseRestaurantDateTime(input.dataOra, this.deps.timeZone);
    if (!start) checks.add('dataOra', 'must be an ISO 8601 date-time');
    checks.throwIfAny();
    const end = new Date(start!.getTime() + durationMinutes * 60_000);

    const [tables, bookings] = await Promise.all([
      this.deps.store.list({ attivo: true, capacitaMin: input.numeroPersone, salaId: input.salaId ?? null }),
      this.bookingsAround(start!, end),
    ]);
    return availableTables(
      tables,
      { start: start!, end, partySize: input.numeroPersone, defaultDurationMinutes: durationMinutes },
      bookings,
    );
  }

  private async bookingsAround(start: Date, end: Date): Promise<BookedSlot[]> {
    const zone = this.deps.timeZone;
    const firstDay = localDateOf(new Date(start.getTime() - MAX_MEAL_MINUTES * 60_000), zone);
    const days = localDatesBetween(firstDay, localDateOf(end, zone));
    const authorization = `Bearer ${this.deps.viewer.token}`;
    const results = await Promise.all(
      days.map((data) =>
        this.deps.subgraphs.request<{ prenotazioniGiorno: DayBooking[] }>(
          'prenotazione',
          BOOKINGS_OF_DAY,
          { data },
          authorization,
        ),
      ),
    );
    return results.flatMap((r) =>
      r.prenotazioniGiorno.map((b) => ({
        tableIds: b.tableIds,
        start: new Date(b.startsAt),
        durationMinutes: b.durationMinutes,
      })),
    );
  }
}
