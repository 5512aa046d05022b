/**
 * Scenario 8's demand model: a seeded, documented description of who asks for a table for one evening and what
 * they do afterwards. Pure: `generateDemand(seed, level, restaurant)` always returns the same parties for the
 * same arguments. Times are minutes after the service day's local midnight (negative = days before).
 *
 * - Demand level L: the parties' requested seat-minutes (covers × turn time, walk-ins included, before
 *   cancellations and no-shows) add up to L × the evening's seat-minutes (all seats, open..close).
 * - 80 % of the parties book ahead, 20 % walk in.
 * - Party sizes: BOOKING_PARTY_MIX / WALK_IN_PARTY_MIX (mostly couples, a tail of large groups that only
 *   combinations seat).
 * - Preferred times: 15-minute slots from opening to the last seating, peaking 20:00–20:30 (SLOT_WEIGHTS).
 * - Lead time (when a booking request arrives): 25 % the same day (30 min to 8 h before), 45 % one to three
 *   days before, 30 % four to fourteen days before.
 * - Cancellations: CANCELLATION_RATE of bookings, at a uniform time between the request and 30 minutes before
 *   the slot. No-shows: NO_SHOW_RATE of the rest (TheFork Italy's published rate before its strike policy).
 * - Stay: the party's turn time less an early departure of 0, 5, 10 or 15 minutes (weights 50/25/15/10).
 * - Flexibility (guest-flexibility.ts): how far from the asked time each booking guest still books, and how short
 *   a shortened seating he still takes; from a stream of its own, so the parties are the same without it.
 * - Walk-ins: arrive uniformly within a slot drawn from the same slot weights; each has a patience uniform in
 *   10..60 minutes: it leaves at once when the quoted wait exceeds it (balks), and gives up after waiting
 *   max(quote, patience) + RENEGE_GRACE_MINUTES (reneges).
 */
import {
  drawFlexibility,
  flexibilitySeed,
  type Flexibility,
  type ToleranceModel,
} from './guest-flexibility.js';
import { turnMinutes, type RestaurantSpec } from './restaurant.js';
import { seededRandom, type Random } from './random.js';

export const BOOKING_PARTY_MIX: readonly (readonly [number, number])[] = [
  [1, 3],
  [2, 40],
  [3, 12],
  [4, 22],
  [5, 6],
  [6, 7],
  [7, 2],
  [8, 3.5],
  [9, 2],
  [10, 2.5],
];
export const WALK_IN_PARTY_MIX: readonly (readonly [number, number])[] = [
  [1, 6],
  [2, 54],
  [3, 14],
  [4, 18],
  [5, 4],
  [6, 4],
];
/** Weights of the 15-minute slots from 18:00 to 21:30. */
export const SLOT_WEIGHTS = [2, 2, 3, 3, 6, 6, 9, 9, 12, 11, 11, 8, 7, 5, 6] as const;
export const WALK_IN_SHARE = 0.2;
/** Not a published figure (none was found): a modelling assumption, see bench/README.md. */
export const CANCELLATION_RATE = 0.1;
/** TheFork Italy, before its no-show strike policy (3.0 % after). */
export const NO_SHOW_RATE = 0.036;
export const NO_SHOW_GRACE_MINUTES = 15;
export const RENEGE_GRACE_MINUTES = 15;
const EARLY_DEPARTURE: readonly (readonly [number, number])[] = [
  [0, 50],
  [5, 25],
  [10, 15],
  [15, 10],
];

export interface BookingRequest {
  kind: 'booking';
  id: number;
  covers: number;
  /** When the request reaches the restaurant (minutes after the service day's midnight; negative = before). */
  requestAt: number;
  /** The time asked for. */
  time: number;
  /** When the guest cancels, or null. */
  cancelAt: number | null;
  noShow: boolean;
  /** Minutes the party stays once seated. */
  stay: number;
  /** How far the guest bends: another time within his tolerance, a shortened seating long enough for him. */
  flexibility: Flexibility;
}

export interface WalkIn {
  kind: 'walk-in';
  id: number;
  covers: number;
  arriveAt: number;
  /** Longest quoted wait the party accepts (minutes). */
  patience: number;
  stay: number;
}

export interface Demand {
  /** Ordered by requestAt. */
  bookings: BookingRequest[];
  /** Ordered by arriveAt. */
  walkIns: WalkIn[];
  /** Requested seat-minutes (covers × turn time) of all parties. */
  requestedSeatMinutes: number;
}

function slotStart(random: Random, spec: RestaurantSpec): number {
  const slots = SLOT_WEIGHTS.map((w, i) => [spec.open + 15 * i, w] as const).filter(
    ([minute]) => minute <= spec.lastSeating,
  );
  return random.weighted(slots);
}

function leadMinutes(random: Random): number {
  const band = random.weighted([
    ['same-day', 25],
    ['1-3 days', 45],
    ['4-14 days', 30],
  ] as const);
  if (band === 'same-day') return random.int(30, 8 * 60);
  if (band === '1-3 days') return random.int(1 * 1440, 3 * 1440);
  return random.int(4 * 1440, 14 * 1440);
}

function stayMinutes(random: Random, spec: RestaurantSpec, covers: number): number {
  return turnMinutes(spec.turnTimes, covers) - random.weighted(EARLY_DEPARTURE);
}

function expectedSeatMinutes(spec: RestaurantSpec, mix: readonly (readonly [number, number])[]): number {
  const total = mix.reduce((sum, [, w]) => sum + w, 0);
  return mix.reduce(
    (sum, [covers, w]) => sum + (w / total) * covers * turnMinutes(spec.turnTimes, covers),
    0,
  );
}

/** The number of parties whose expected requested seat-minutes are `level` × the evening's seat-minutes. */
export function partyCount(spec: RestaurantSpec, level: number, available: number): number {
  const perParty =
    (1 - WALK_IN_SHARE) * expectedSeatMinutes(spec, BOOKING_PARTY_MIX) +
    WALK_IN_SHARE * expectedSeatMinutes(spec, WALK_IN_PARTY_MIX);
  return Math.round((level * available) / perParty);
}

export function generateDemand(
  seed: number,
  level: number,
  spec: RestaurantSpec,
  available: number,
  tolerance: ToleranceModel = 'mixed',
): Demand {
  const random = seededRandom(seed);
  const flexible = seededRandom(flexibilitySeed(seed));
  const parties = partyCount(spec, level, available);
  const walkInCount = Math.round(parties * WALK_IN_SHARE);
  const bookings: BookingRequest[] = [];
  for (let id = 0; id < parties - walkInCount; id++) {
    const covers = random.weighted(BOOKING_PARTY_MIX);
    const time = slotStart(random, spec);
    const requestAt = time - leadMinutes(random);
    const latestCancel = time - 30;
    const cancels = random.chance(CANCELLATION_RATE) && latestCancel > requestAt;
    const cancelAt = cancels ? random.int(requestAt + 1, latestCancel) : null;
    const noShow = random.chance(NO_SHOW_RATE);
    bookings.push({
      kind: 'booking',
      id,
      covers,
      requestAt,
      time,
      cancelAt,
      noShow: cancelAt === null && noShow,
      stay: stayMinutes(random, spec, covers),
      flexibility: drawFlexibility(flexible, turnMinutes(spec.turnTimes, covers), tolerance),
    });
  }
  const walkIns: WalkIn[] = [];
  for (let id = 0; id < walkInCount; id++) {
    const covers = random.weighted(WALK_IN_PARTY_MIX);
    const arriveAt = Math.min(spec.lastSeating, slotStart(random, spec) + random.int(0, 14));
    walkIns.push({
      kind: 'walk-in',
      id,
      covers,
      arriveAt,
      patience: random.int(10, 60),
      stay: stayMinutes(random, spec, covers),
    });
  }
  bookings.sort((a, b) => a.requestAt - b.requestAt || a.id - b.id);
  walkIns.sort((a, b) => a.arriveAt - b.arriveAt || a.id - b.id);
  const requestedSeatMinutes = [...bookings, ...walkIns].reduce(
    (sum, p) => sum + p.covers * turnMinutes(spec.turnTimes, p.covers),
    0,
  );
  return { bookings, walkIns, requestedSeatMinutes };
}
