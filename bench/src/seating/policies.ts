/**
 * Scenario 8's three booking policies, each a small function from a booking request to REST calls:
 * - `first-listed`: what clients do today: ask `verifica-disponibilita` for the party and its turn time, book
 *   the first table it lists (or, when no single table fits, the first combination it lists) with that
 *   duration; nothing listed = refused.
 * - `auto`: `POST /api/prenotazioni` with `autoAssign: true`, the restaurant's re-seating off.
 * - `auto-reseat`: the same with re-seating on.
 * 409 NO_TABLE_AVAILABLE / TABLE_UNAVAILABLE = refused; any other error is the caller's to count.
 */
import { ApiError, type Api } from '../api.js';
import { errorCode } from './api-errors.js';

export const POLICIES = ['first-listed', 'auto', 'auto-reseat'] as const;
export type PolicyName = (typeof POLICIES)[number];

/** The capacity config's `reseat` for a policy (manual bookings are never moved, so first-listed: off). */
export const reseatFor = (policy: PolicyName) => policy === 'auto-reseat';
/** Policies that need the seating API (combinations, turn times, autoAssign) to run at all. */
export const needsSeatingApi = (policy: PolicyName) => policy !== 'first-listed';

export interface BookingAsk {
  covers: number;
  /** Restaurant-local `YYYY-MM-DDTHH:mm:ss`. */
  bookingDate: string;
  /** The party's turn time (minutes). */
  turnMinutes: number;
  customerName: string;
}

export type BookOutcome =
  { kind: 'booked'; id: string; tableIds: string[] } | { kind: 'refused'; code: string };

/** What verifica-disponibilita answers (the combination fields exist once the seating API is merged). */
export interface Availability {
  tavoliDisponibili?: { id: string }[];
  availableTables?: { id: string }[];
  combinazioniDisponibili?: { id: string }[];
  availableCombinations?: { id: string }[];
}

/** The first listed table, else the first listed combination, else nothing. */
export function firstListed(
  availability: Availability,
): { tableIds: string[] } | { combinationId: string } | null {
  const table = (availability.availableTables ?? availability.tavoliDisponibili ?? [])[0];
  if (table) return { tableIds: [table.id] };
  const combination = (availability.availableCombinations ?? availability.combinazioniDisponibili ?? [])[0];
  return combination ? { combinationId: combination.id } : null;
}

/** The body of POST /api/prenotazioni for a policy (`choice`: first-listed's pick). */
export function bookingBody(
  policy: PolicyName,
  ask: BookingAsk,
  choice?: { tableIds: string[] } | { combinationId: string },
): Record<string, unknown> {
  const base = {
    covers: ask.covers,
    bookingDate: ask.bookingDate,
    customerName: ask.customerName,
    state: 'confermata',
  };
  if (policy === 'first-listed') return { ...base, durationMinutes: ask.turnMinutes, ...choice };
  return { ...base, autoAssign: true };
}

const REFUSALS = new Set(['NO_TABLE_AVAILABLE', 'TABLE_UNAVAILABLE']);

export async function book(policy: PolicyName, api: Api, ask: BookingAsk): Promise<BookOutcome> {
  let choice: { tableIds: string[] } | { combinationId: string } | undefined;
  if (policy === 'first-listed') {
    const availability = await api.call<Availability>('POST', '/api/tavoli/verifica-disponibilita', {
      dataOra: ask.bookingDate,
      numeroPersone: ask.covers,
      durataMediaPasto: ask.turnMinutes,
    });
    const pick = firstListed(availability);
    if (!pick) return { kind: 'refused', code: 'NOTHING_LISTED' };
    choice = pick;
  }
  try {
    const created = await api.call<{ id: string; tableIds: string[] }>(
      'POST',
      '/api/prenotazioni',
      bookingBody(policy, ask, choice),
    );
    if (created.tableIds.length === 0) throw new Error(`${policy}: the booking came back without tables`);
    return { kind: 'booked', id: created.id, tableIds: created.tableIds };
  } catch (error) {
    const code = errorCode(error);
    if (error instanceof ApiError && error.status === 409 && code && REFUSALS.has(code)) {
      return { kind: 'refused', code };
    }
    throw error;
  }
}
