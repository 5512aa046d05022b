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
  /** When the record was made: a record of an erased guest made before the erasure is erased too. */
  createdAt: string | null;
  updatedAt: string;
  /** A booking's tables (empty for a waitlist entry): which booking a table's payment belongs to (spend.ts). */
  tableIds: string[];
  /** Bookings only: what counting reads. */
  booking: BookingFacts | null;
}

type Data = Record<string, unknown>;

const text = (data: Data, key: string): string | null => {
  const value = data[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
};

const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** A table going to payment with its bill (tables.status to `payment_pending` with a totalAmount above 0). */
export interface TablePayment {
  tableId: string;
  amount: number;
  /** The table's updatedAt: when it went to payment. */
  at: string;
}

/** The payment a tables.status event tells, or null. */
export function tablePaymentOf(event: CloudEvent): TablePayment | null {
  if (event.type !== 'tables.status' || typeof event.data !== 'object' || event.data === null) return null;
  const data = event.data as Data;
  const tableId = text(data, 'id');
  const at = text(data, 'updatedAt');
  const amount = data['totalAmount'];
  if (data['status'] !== 'payment_pending' || !tableId || !at) return null;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return null;
  return { tableId, amount, at };
}

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
    createdAt: text(data, 'createdAt'),
    updatedAt,
    tableIds: tipo === 'prenotazione' ? stringsOf(data['tableIds']) : [],
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
