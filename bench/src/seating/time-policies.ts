/**
 * Scenario 8's two guests who accept another time than the one they asked for, each within his own tolerance
 * (guest-flexibility.ts):
 * - `retry`: what a client without the search does: book the asked time with `autoAssign: true`, on a refusal
 *   try 15 minutes earlier, 15 later, 30 earlier, 30 later … as far as his tolerance (within the evening's
 *   booking hours), then give up;
 * - `times` (and `times-shortened`, the restaurant's `shortenedMinMinutes` at SHORTENED_MIN_MINUTES): ask
 *   `GET /api/disponibilita` for the TIMES_ASKED times nearest to the asked one, book the nearest offered within
 *   his tolerance with `autoAssign: true` (a shortened time only when it is at least as long as the shortest stay
 *   he accepts, booked with its `durationMinutes`), else give up.
 * The rules are pure; the calls are policies.ts's.
 */
/** The step between the times a retrying guest tries (the restaurant's slots). */
export const RETRY_STEP_MINUTES = 15;
/** `shortenedMinMinutes` of the `times-shortened` policy's restaurant. */
export const SHORTENED_MIN_MINUTES = 60;
/**
 * How many times the guest asks the search for (`limite`): every 15-minute slot within the widest tolerance of the
 * model (60 minutes either side: 9 slots), so no guest misses a time he would take.
 */
export const TIMES_ASKED = 9;

/** How far one guest bends (guest-flexibility.ts's Flexibility). */
export interface GuestBend {
  toleranceMinutes: number;
  shortestStayMinutes: number;
}

/** One time of `GET /api/disponibilita`'s `times` (the English names; the Italian twins are ignored). */
export interface OfferedTime {
  time: string;
  bookingDate: string;
  durationMinutes: number;
  shortened: boolean;
}

/** Minutes after midnight of a local 'HH:MM'. */
export function minuteOfClock(text: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(text);
  if (!match) throw new Error(`not a time 'HH:MM': ${text}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** 'HH:MM' of minutes after midnight. */
export function clockOfMinute(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/**
 * The offered time nearest to `asked` (minutes after midnight) that the guest takes: within his tolerance, and
 * (shortened) at least as long as the shortest stay he accepts; the earlier of two equally near; null when none
 * is. Does not rely on the service's order.
 */
export function nearestWithin(
  offered: readonly OfferedTime[],
  asked: number,
  guest: GuestBend,
): OfferedTime | null {
  let best: { offer: OfferedTime; distance: number; minute: number } | null = null;
  for (const offer of offered) {
    const minute = minuteOfClock(offer.time);
    const distance = Math.abs(minute - asked);
    if (distance > guest.toleranceMinutes) continue;
    if (offer.shortened && offer.durationMinutes < guest.shortestStayMinutes) continue;
    if (!best || distance < best.distance || (distance === best.distance && minute < best.minute)) {
      best = { offer, distance, minute };
    }
  }
  return best?.offer ?? null;
}

/**
 * The retry guest's times, in order: the asked time, then RETRY_STEP_MINUTES earlier, as much later, twice as much
 * earlier … as far as his tolerance (nearest first, the earlier of two equally near), within [first, last]
 * booking times.
 */
export function retryTimes(asked: number, first: number, last: number, toleranceMinutes: number): number[] {
  const offsets = [0];
  for (let step = RETRY_STEP_MINUTES; step <= toleranceMinutes; step += RETRY_STEP_MINUTES) {
    offsets.push(-step, step);
  }
  return offsets.map((offset) => asked + offset).filter((minute) => minute >= first && minute <= last);
}

/** The fields a booking of an offered time adds: its local date-time, and its duration when shortened. */
export function offeredBooking(offer: OfferedTime): { bookingDate: string; durationMinutes?: number } {
  return offer.shortened
    ? { bookingDate: offer.bookingDate, durationMinutes: offer.durationMinutes }
    : { bookingDate: offer.bookingDate };
}
