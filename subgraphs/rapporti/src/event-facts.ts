import type { CloudEvent } from '@coperto/bus';

/** A table's status change as rapporti keeps it (collection `rapporti_cambi`, id = the event's id). */
export interface CambioRecord {
  id: string;
  tavoloId: string;
  /** The table's room and seats at the change (the event's record). */
  salaId: string | null;
  seats: number;
  /** The event's time (ISO 8601 UTC): when the change was written. */
  at: string;
  stato: string;
  precedente: string | null;
  orderId: string | null;
  pax: number | null;
  totalAmount: number | null;
}

/** What rapporti keeps of a booking (collection `rapporti_prenotazioni`, id = the booking's), latest state. */
export interface PrenotazioneFatti {
  id: string;
  startsAt: string;
  covers: number;
  tableIds: string[];
  state: string;
  /** The booking's own stay (null: its party's turn time applies). */
  durationMinutes: number | null;
  /** Seated from the waitlist (`siedi`'s booking, externalId `waitlist:<entry>`) or booked as a walk-in. */
  walkIn: boolean;
  /** The booking's updatedAt when this state was written: an older event never overwrites a newer one. */
  aggiornatoAt: string;
}

/** The facts an event carries for rapporti. */
export type EventFacts =
  { kind: 'cambio'; cambio: CambioRecord } | { kind: 'prenotazione'; prenotazione: PrenotazioneFatti };

type Data = Record<string, unknown>;

const text = (data: Data, key: string): string | null => {
  const value = data[key];
  return typeof value === 'string' && value !== '' ? value : null;
};
const number = (data: Data, key: string): number | null => {
  const value = data[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};

/** The prefix of the externalId prenotazione gives a waitlist seating's booking (walkInExternalId). */
const WAITLIST_EXTERNAL_ID = 'waitlist:';
const WALK_IN_ORIGINS: ReadonlySet<string> = new Set(['walk-in', 'walkin']);

/**
 * The facts of a tables.status or bookings.* event, or null for any other event or a body without the shape of
 * tavolo's or prenotazione's records (nothing to learn: it is not retried).
 */
export function factsOf(event: CloudEvent): EventFacts | null {
  if (typeof event.data !== 'object' || event.data === null) return null;
  const data = event.data as Data;
  if (event.type === 'tables.status') return cambioOf(event, data);
  if (event.type.startsWith('bookings.')) return prenotazioneOf(data);
  return null;
}

function cambioOf(event: CloudEvent, data: Data): EventFacts | null {
  const tavoloId = text(data, 'id');
  const stato = text(data, 'status') ?? text(data, 'stato');
  const time = Date.parse(event.time);
  if (!tavoloId || !stato || !Number.isFinite(time)) return null;
  return {
    kind: 'cambio',
    cambio: {
      id: event.id,
      tavoloId,
      salaId: text(data, 'salaId') ?? text(data, 'roomId'),
      seats: number(data, 'seats') ?? number(data, 'capacita') ?? 0,
      at: new Date(time).toISOString(),
      stato,
      precedente: text(data, 'previousStatus'),
      orderId: text(data, 'orderId'),
      pax: number(data, 'pax'),
      totalAmount: number(data, 'totalAmount'),
    },
  };
}

function prenotazioneOf(data: Data): EventFacts | null {
  const id = text(data, 'id');
  const startsAt = text(data, 'startsAt');
  const state = text(data, 'state');
  const updatedAt = text(data, 'updatedAt');
  const covers = number(data, 'covers');
  const tableIds = data['tableIds'];
  const start = Date.parse(startsAt ?? '');
  if (!id || !Number.isFinite(start) || !state || !updatedAt || covers === null || !Array.isArray(tableIds))
    return null;
  const externalId = text(data, 'externalId');
  const origine = text(data, 'origine') ?? text(data, 'source');
  return {
    kind: 'prenotazione',
    prenotazione: {
      id,
      startsAt: new Date(start).toISOString(),
      covers,
      tableIds: tableIds.filter((t): t is string => typeof t === 'string'),
      state,
      durationMinutes: number(data, 'durationMinutes'),
      walkIn:
        (externalId?.startsWith(WAITLIST_EXTERNAL_ID) ?? false) ||
        (origine !== null && WALK_IN_ORIGINS.has(origine)),
      aggiornatoAt: updatedAt,
    },
  };
}
