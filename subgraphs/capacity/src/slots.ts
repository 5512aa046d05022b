import { instantOfWallClock, zoneOffsetMinutes } from '@coperto/domain';
import { minutesOfClock, type OpeningInterval } from './opening-hours.js';

/** A slot of a local day: local wall-clock labels and the instants they stand for. */
export interface SlotWindow {
  /** Local wall-clock start, `YYYY-MM-DDTHH:mm:ss`. */
  start: string;
  end: string;
  startsAt: Date;
  endsAt: Date;
}

/**
 * Active bookings that start at one instant and stay as long, as the count needs them (prenotazione's
 * `arriviGiorno`: the day's active bookings summed by start and effective duration).
 */
export interface Arrivals {
  startsAt: Date;
  /** Their stay: each booking's effective duration (its own, else its party's turn time, stored with it). */
  durationMinutes: number;
  /** Their covers, summed. */
  covers: number;
  /** How many bookings. */
  bookings: number;
}

export interface CapacitySlot extends SlotWindow {
  maxCovers: number;
  coversBooked: number;
  coversAvailable: number;
  /** The smallest production category's capacity per slot; null without categories. */
  kitchenCovers: number | null;
  /** Covers that may still arrive: pacing and the kitchen less those booked to arrive. */
  coversBookable: number;
  arrivals: number;
  coversSeated: number;
}

/** Day of the week of a local date `YYYY-MM-DD`: 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** The local wall-clock time of an instant in `zone`, `YYYY-MM-DDTHH:mm:ss`. */
export function localDateTimeOf(instant: Date, zone: string): string {
  const offset = zoneOffsetMinutes(instant.getTime(), zone);
  return new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 19);
}

/**
 * The slots of a local date (pure). Each opening interval runs from the instant of its local opening time to
 * the instant of its local closing time and is cut into slots of `slotMinutes` of real time, the last one cut
 * at closing. So a DST switch day has exactly the slots the clock lives through: none for the local times
 * skipped in spring (02:00–02:59 in Europe/Rome), two for each repeated local time in autumn (told apart by
 * `startsAt`). An opening time that does not exist moves forward; an ambiguous one takes the earlier instant.
 */
export function slotsOfDay(
  date: string,
  intervals: readonly OpeningInterval[],
  slotMinutes: number,
  zone: string,
): SlotWindow[] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const midnight = Date.UTC(y, m - 1, d);
  const step = slotMinutes * 60_000;
  const slots: SlotWindow[] = [];
  for (const interval of intervals) {
    const open = instantOfWallClock(midnight + minutesOfClock(interval.open)! * 60_000, zone);
    const close = instantOfWallClock(
      midnight + minutesOfClock(interval.close, { closing: true })! * 60_000,
      zone,
    );
    for (let start = open; start < close; start += step) {
      const startsAt = new Date(start);
      const endsAt = new Date(Math.min(start + step, close));
      slots.push({
        start: localDateTimeOf(startsAt, zone),
        end: localDateTimeOf(endsAt, zone),
        startsAt,
        endsAt,
      });
    }
  }
  return slots.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
}

/**
 * The kitchen's limit on covers arriving in one slot: the smallest capacityPerSlot of the production categories.
 * Bookings do not say what their guests will order, so every arriving cover is counted against every station;
 * null when the tenant has no categories (the kitchen sets no limit).
 */
export function kitchenCoversOf(categories: ReadonlyArray<{ capacityPerSlot: number }>): number | null {
  return categories.length === 0 ? null : Math.min(...categories.map((c) => c.capacityPerSlot));
}

/**
 * Pacing and occupancy (pure) over the active bookings (`arrivals`: prenotazione counts only those). Each slot's
 * `coversBooked` are those of the bookings whose start falls in [startsAt, endsAt) (a booking arriving while the
 * restaurant is closed is in no slot) and `arrivals` how many they are; its `coversSeated` are those of the
 * bookings at their tables during the slot: whose stay [start, start + effective duration) overlaps the slot
 * (touching ends do not).
 */
export function countCovers(
  slots: readonly SlotWindow[],
  arrivals: readonly Arrivals[],
  maxCoversPerSlot: number,
  kitchenCovers: number | null = null,
): CapacitySlot[] {
  const arrivalLimit = Math.min(maxCoversPerSlot, kitchenCovers ?? Infinity);
  const active = arrivals.map((a) => {
    const start = a.startsAt.getTime();
    return { covers: a.covers, bookings: a.bookings, start, end: start + a.durationMinutes * 60_000 };
  });
  return slots.map((slot) => {
    const from = slot.startsAt.getTime();
    const to = slot.endsAt.getTime();
    const arriving = active.filter((b) => b.start >= from && b.start < to);
    const coversBooked = sumCovers(arriving);
    return {
      ...slot,
      maxCovers: maxCoversPerSlot,
      coversBooked,
      coversAvailable: Math.max(0, maxCoversPerSlot - coversBooked),
      kitchenCovers,
      coversBookable: Math.max(0, arrivalLimit - coversBooked),
      arrivals: arriving.reduce((sum, a) => sum + a.bookings, 0),
      coversSeated: sumCovers(active.filter((b) => b.start < to && b.end > from)),
    };
  });
}

const sumCovers = (bookings: ReadonlyArray<{ covers: number }>) =>
  bookings.reduce((sum, b) => sum + b.covers, 0);
