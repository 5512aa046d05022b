import type { CloudEvent } from '@coperto/bus';
import type { BookingFacts } from './counts.js';
import type { TipoCollegamento } from './ospite-record.js';

/** What ospiti reads from a booking's or waitlist entry's event (`data` is the full record after the change). */
export interface RecordFacts {
  tipo: TipoCollegamento;
  id: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  lingua: string | null;
  state: string;
  startsAt: string | null;
  updatedAt: string;
  /** Bookings only: what counting reads. */
  booking: BookingFacts | null;
}

type Data = Record<string, unknown>;

const text = (data: Data, key: string): string | null => {
  const value = data[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
};

/**
 * The facts of an event ospiti follows (bookings.*, waitlist.*), or null for any other event or a body that
 * does not have the shape of prenotazione's records (nothing to learn: it is not retried).
 */
export function factsOf(event: CloudEvent): RecordFacts | null {
  const tipo = event.type.startsWith('bookings.')
    ? 'prenotazione'
    : event.type.startsWith('waitlist.')
      ? 'attesa'
      : null;
  if (!tipo || typeof event.data !== 'object' || event.data === null) return null;
  const data = event.data as Data;
  const id = text(data, 'id');
  const state = text(data, 'state');
  const updatedAt = text(data, 'updatedAt');
  if (!id || !state || !updatedAt) return null;
  const startsAt = text(data, 'startsAt');
  const facts: RecordFacts = {
    tipo,
    id,
    name: text(data, 'customerName'),
    phone: text(data, 'customerPhone'),
    email: text(data, 'customerEmail'),
    lingua: text(data, 'lingua'),
    state,
    startsAt: tipo === 'prenotazione' ? startsAt : null,
    updatedAt,
    booking: null,
  };
  if (tipo === 'prenotazione') {
    const bookingDate = text(data, 'bookingDate');
    const covers = data['covers'];
    if (!startsAt || !bookingDate || typeof covers !== 'number') return null;
    facts.booking = { id, state, covers, bookingDate, startsAt, cancelledAt: text(data, 'cancelledAt') };
  }
  return facts;
}
