/**
 * Scenario 8's booking policies, each a small function from a booking request to REST calls:
 * - `first-listed`: what clients do today: ask `verifica-disponibilita` for the party and its turn time, book
 *   the first table it lists (or, when no single table fits, the first combination it lists) with that
 *   duration; nothing listed = refused.
 * - `auto`: `POST /api/prenotazioni` with `autoAssign: true`, the restaurant's re-seating off.
 * - `auto-reseat`: the same with re-seating on.
 * - `retry`, `times`, `times-shortened`: guests who accept another time within their own tolerance (and a shortened
 *   seating long enough for them), by retrying or by asking the availability search (time-policies.ts,
 *   guest-flexibility.ts); re-seating on.
 * 409 NO_TABLE_AVAILABLE / TABLE_UNAVAILABLE = refused; any other error is the caller's to count.
 */
import { ApiError, type Api } from '../api.js';
import { errorCode } from './api-errors.js';
import { localDateTime } from './local-time.js';
import {
  SHORTENED_MIN_MINUTES,
  TIMES_ASKED,
  clockOfMinute,
  minuteOfClock,
  nearestWithin,
  offeredBooking,
  retryTimes,
  type GuestBend,
  type OfferedTime,
} from './time-policies.js';

export const POLICIES = ['first-listed', 'auto', 'auto-reseat', 'retry', 'times', 'times-shortened'] as const;
export type PolicyName = (typeof POLICIES)[number];

/** The capacity config's `reseat` for a policy (manual bookings are never moved, so first-listed: off). */
export const reseatFor = (policy: PolicyName) => policy !== 'first-listed' && policy !== 'auto';
/** The capacity config's `shortenedMinMinutes` for a policy (null = never). */
export const shortenedFor = (policy: PolicyName) =>
  policy === 'times-shortened' ? SHORTENED_MIN_MINUTES : null;
/** Policies that need the seating API (combinations, turn times, autoAssign) to run at all. */
export const needsSeatingApi = (policy: PolicyName) => policy !== 'first-listed';

export interface BookingAsk {
  covers: number;
  /** Restaurant-local `YYYY-MM-DDTHH:mm:ss` of the asked time. */
  bookingDate: string;
  /** The service day and the asked time (minutes after midnight). */
  date: string;
  time: number;
  /** The evening's first and last booking times (minutes after midnight): where `retry` may try. */
  firstTime: number;
  lastTime: number;
  /** The party's turn time (minutes). */
  turnMinutes: number;
  /** How far the guest bends (the policies that try other times). */
  flexibility: GuestBend;
  customerName: string;
}

export type BookOutcome =
  | {
      kind: 'booked';
      id: string;
      tableIds: string[];
      /** The time booked (minutes after midnight), and the stay the guest was given when shortened. */
      time: number;
      durationMinutes: number | null;
    }
  | { kind: 'refused'; code: string };

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

/** POST /api/prenotazioni; a 409 NO_TABLE_AVAILABLE / TABLE_UNAVAILABLE is a refusal. */
async function create(
  policy: PolicyName,
  api: Api,
  body: Record<string, unknown>,
): Promise<{ id: string; tableIds: string[] } | { code: string }> {
  try {
    const created = await api.call<{ id: string; tableIds: string[] }>('POST', '/api/prenotazioni', body);
    if (created.tableIds.length === 0) throw new Error(`${policy}: the booking came back without tables`);
    return created;
  } catch (error) {
    const code = errorCode(error);
    if (error instanceof ApiError && error.status === 409 && code && REFUSALS.has(code)) return { code };
    throw error;
  }
}

export async function book(policy: PolicyName, api: Api, ask: BookingAsk): Promise<BookOutcome> {
  if (policy === 'retry') return bookRetrying(api, ask);
  if (policy === 'times' || policy === 'times-shortened') return bookOfferedTime(policy, api, ask);
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
  const created = await create(policy, api, bookingBody(policy, ask, choice));
  if ('code' in created) return { kind: 'refused', code: created.code };
  return { kind: 'booked', ...created, time: ask.time, durationMinutes: null };
}

/** `retry`: the asked time, then ±15, ±30 … minutes as far as the guest bends, each with autoAssign; the first that books. */
async function bookRetrying(api: Api, ask: BookingAsk): Promise<BookOutcome> {
  let code = 'OUTSIDE_BOOKING_HOURS';
  for (const time of retryTimes(ask.time, ask.firstTime, ask.lastTime, ask.flexibility.toleranceMinutes)) {
    const body = { ...bookingBody('auto', ask), bookingDate: localDateTime(ask.date, time) };
    const created = await create('retry', api, body);
    if (!('code' in created)) return { kind: 'booked', ...created, time, durationMinutes: null };
    code = created.code;
  }
  return { kind: 'refused', code };
}

/** `times`: the nearest time the search offers that the guest takes, booked with autoAssign. */
async function bookOfferedTime(policy: PolicyName, api: Api, ask: BookingAsk): Promise<BookOutcome> {
  const query = new URLSearchParams({
    data: ask.date,
    coperti: String(ask.covers),
    ora: clockOfMinute(ask.time),
    limite: String(TIMES_ASKED),
  });
  const day = await api.call<{ times: OfferedTime[] }>('GET', `/api/disponibilita?${query}`);
  const offer = nearestWithin(day.times, ask.time, ask.flexibility);
  if (!offer) return { kind: 'refused', code: 'NO_TIME_WITHIN_TOLERANCE' };
  const created = await create(policy, api, { ...bookingBody('auto', ask), ...offeredBooking(offer) });
  if ('code' in created) return { kind: 'refused', code: created.code };
  const durationMinutes = offer.shortened ? offer.durationMinutes : null;
  return { kind: 'booked', ...created, time: minuteOfClock(offer.time), durationMinutes };
}
