import type { CloudEvent } from '@coperto/bus';
import { isActiveBookingState } from '@coperto/domain';

/** What promemoria keeps of a booking (collection `promemoria_prenotazioni`), from prenotazione's events. */
export interface BookingFacts {
  id: string;
  codice: string;
  state: string;
  /** UTC instant of the start. */
  startsAt: string;
  /** UTC instant of the end (the start plus the minutes the booking holds its tables). */
  endsAt: string;
  covers: number;
  customerName: string;
  /** Present once bookings carry one (booking channels); null otherwise. */
  customerEmail: string | null;
  /** `it` or `en` when the booking says; null otherwise. */
  lingua: string | null;
  updatedAt: string;
}

/** The minutes a booking holds its tables when its record says nothing (prenotazione's own default). */
const DEFAULT_MINUTES = 120;

type Data = Record<string, unknown>;

const text = (data: Data, key: string): string | null => {
  const value = data[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
};

const minutes = (data: Data): number => {
  for (const key of ['effectiveDurationMinutes', 'durationMinutes']) {
    const value = data[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return DEFAULT_MINUTES;
};

/** The facts of a booking event (bookings.*), or null for any other event or a body without a booking's shape. */
export function bookingFactsOf(event: CloudEvent): BookingFacts | null {
  if (!event.type.startsWith('bookings.') || typeof event.data !== 'object' || event.data === null)
    return null;
  const data = event.data as Data;
  const id = text(data, 'id');
  const state = text(data, 'state');
  const startsAt = text(data, 'startsAt');
  const updatedAt = text(data, 'updatedAt');
  const covers = data['covers'];
  if (!id || !state || !startsAt || !updatedAt || typeof covers !== 'number') return null;
  const start = Date.parse(startsAt);
  if (Number.isNaN(start)) return null;
  const lingua = text(data, 'lingua') ?? text(data, 'language');
  return {
    id,
    codice: text(data, 'codice') ?? '',
    state,
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + minutes(data) * 60_000).toISOString(),
    covers,
    customerName: text(data, 'customerName') ?? '',
    customerEmail: text(data, 'customerEmail'),
    lingua: lingua === 'it' || lingua === 'en' ? lingua : null,
    updatedAt,
  };
}

export function isActive(facts: Pick<BookingFacts, 'state'>): boolean {
  return isActiveBookingState(facts.state);
}
