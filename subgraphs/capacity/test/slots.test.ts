import { describe, expect, it } from 'vitest';
import { defaultOpeningHours } from '../src/opening-hours.js';
import {
  countCovers,
  kitchenCoversOf,
  localDateTimeOf,
  slotsOfDay,
  weekdayOf,
  type Arrivals,
  type SlotWindow,
} from '../src/slots.js';

const ROME = 'Europe/Rome';
const lunchAndDinner = defaultOpeningHours()[0]!;
const allDay = [{ open: '00:00', close: '24:00' }];
const labels = (slots: SlotWindow[]) => slots.map((s) => s.start.slice(11, 16));

describe('slotsOfDay', () => {
  it('cuts lunch and dinner into 15-minute slots of local time (12 + 16 = 28)', () => {
    const slots = slotsOfDay('2026-06-10', lunchAndDinner, 15, ROME);
    expect(slots).toHaveLength(28);
    expect(slots[0]).toEqual({
      start: '2026-06-10T12:00:00',
      end: '2026-06-10T12:15:00',
      startsAt: new Date('2026-06-10T10:00:00Z'),
      endsAt: new Date('2026-06-10T10:15:00Z'),
    });
    expect(labels(slots).slice(11, 13)).toEqual(['14:45', '19:00']);
    expect(slots.at(-1)).toMatchObject({ start: '2026-06-10T22:45:00', end: '2026-06-10T23:00:00' });
  });

  it('follows the zone: the same local hours are an hour apart in UTC in winter and summer', () => {
    expect(slotsOfDay('2026-01-10', lunchAndDinner, 15, ROME)[0]!.startsAt.toISOString()).toBe(
      '2026-01-10T11:00:00.000Z',
    );
    expect(slotsOfDay('2026-06-10', lunchAndDinner, 15, 'America/New_York')[0]!.startsAt.toISOString()).toBe(
      '2026-06-10T16:00:00.000Z',
    );
  });

  it('keeps the usual local slots on both DST switch days, at the shifted UTC instants', () => {
    const before = slotsOfDay('2026-03-28', lunchAndDinner, 15, ROME);
    const spring = slotsOfDay('2026-03-29', lunchAndDinner, 15, ROME);
    const autumn = slotsOfDay('2026-10-25', lunchAndDinner, 15, ROME);
    expect(labels(spring)).toEqual(labels(before));
    expect(labels(autumn)).toEqual(labels(before));
    expect(before[0]!.startsAt.toISOString()).toBe('2026-03-28T11:00:00.000Z'); // CET
    expect(spring[0]!.startsAt.toISOString()).toBe('2026-03-29T10:00:00.000Z'); // CEST
    expect(autumn[0]!.startsAt.toISOString()).toBe('2026-10-25T11:00:00.000Z'); // CET again
  });

  it('has no slot for the local hour skipped on 2026-03-29 (a 23-hour day: 92 slots)', () => {
    const slots = slotsOfDay('2026-03-29', allDay, 15, ROME);
    expect(slots).toHaveLength(92);
    expect(labels(slots).filter((l) => l.startsWith('02:'))).toEqual([]);
    expect(labels(slots).slice(6, 10)).toEqual(['01:30', '01:45', '03:00', '03:15']);
    expect(slots[7]!.endsAt).toEqual(slots[8]!.startsAt);
    expect(slots.at(-1)!.endsAt.toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('has the repeated local hour twice on 2026-10-25 (a 25-hour day: 100 slots), told apart by startsAt', () => {
    const slots = slotsOfDay('2026-10-25', allDay, 15, ROME);
    expect(slots).toHaveLength(100);
    const twoOClock = slots.filter((s) => s.start === '2026-10-25T02:00:00');
    expect(twoOClock.map((s) => s.startsAt.toISOString())).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
    ]);
    const instants = slots.map((s) => s.startsAt.getTime());
    expect(instants.every((t, i) => i === 0 || t - instants[i - 1]! === 15 * 60_000)).toBe(true);
  });

  it('moves an opening time that does not exist forward to the first real instant', () => {
    const slots = slotsOfDay('2026-03-29', [{ open: '02:30', close: '04:00' }], 30, ROME);
    expect(slots.map((s) => s.start.slice(11, 16))).toEqual(['03:30']);
    expect(slots[0]!.startsAt.toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('cuts the last slot at closing time and sorts intervals given out of order', () => {
    const slots = slotsOfDay(
      '2026-06-10',
      [
        { open: '19:00', close: '20:10' },
        { open: '12:00', close: '12:30' },
      ],
      30,
      ROME,
    );
    expect(slots.map((s) => `${s.start.slice(11, 16)}-${s.end.slice(11, 16)}`)).toEqual([
      '12:00-12:30',
      '19:00-19:30',
      '19:30-20:00',
      '20:00-20:10',
    ]);
  });

  it('ends a slot at midnight with the next local date, and has none on a closed day', () => {
    const late = slotsOfDay('2026-06-10', [{ open: '23:30', close: '24:00' }], 30, ROME);
    expect(late).toEqual([
      expect.objectContaining({ start: '2026-06-10T23:30:00', end: '2026-06-11T00:00:00' }),
    ]);
    expect(slotsOfDay('2026-06-10', [], 15, ROME)).toEqual([]);
  });
});

describe('countCovers', () => {
  const slots = slotsOfDay('2026-06-10', [{ open: '19:00', close: '20:00' }], 15, ROME); // 17:00Z–18:00Z
  /** `bookings` active bookings starting at `startsAt` for `durationMinutes`, `covers` between them. */
  const arrival = (covers: number, startsAt: string, durationMinutes = 120, bookings = 1): Arrivals => ({
    covers,
    startsAt: new Date(startsAt),
    durationMinutes,
    bookings,
  });

  it('counts the covers and bookings arriving in each slot (start inclusive, end exclusive)', () => {
    const counted = countCovers(
      slots,
      [
        arrival(4, '2026-06-10T17:00:00Z'),
        arrival(2, '2026-06-10T17:14:59Z'),
        arrival(6, '2026-06-10T17:15:00Z'),
        arrival(3, '2026-06-10T17:59:00Z'),
      ],
      10,
    );
    expect(counted.map((s) => [s.coversBooked, s.coversAvailable, s.arrivals])).toEqual([
      [6, 4, 2],
      [6, 4, 1],
      [0, 10, 0],
      [3, 7, 1],
    ]);
    expect(counted.every((s) => s.maxCovers === 10)).toBe(true);
  });

  it('counts a sum of several bookings (prenotazione sums a start and stay) as those bookings', () => {
    const [first, second] = countCovers(
      slots,
      [arrival(9, '2026-06-10T17:00:00Z', 20, 3), arrival(2, '2026-06-10T17:05:00Z', 120, 1)],
      10,
    );
    expect(first).toMatchObject({ coversBooked: 11, arrivals: 4, coversSeated: 11, coversBookable: 0 });
    expect(second).toMatchObject({ coversBooked: 0, arrivals: 0, coversSeated: 11 });
  });

  it('takes the kitchen as the arrival limit when its smallest station is below pacing', () => {
    expect(kitchenCoversOf([])).toBeNull();
    expect(kitchenCoversOf([{ capacityPerSlot: 12 }, { capacityPerSlot: 7 }])).toBe(7);
    const arrivals = [arrival(4, '2026-06-10T17:00:00Z'), arrival(8, '2026-06-10T17:15:00Z')];
    const paced = countCovers(slots, arrivals, 10);
    expect(paced.map((s) => [s.kitchenCovers, s.coversBookable])).toEqual([
      [null, 6],
      [null, 2],
      [null, 10],
      [null, 10],
    ]);
    const cooked = countCovers(slots, arrivals, 10, 7);
    expect(cooked.map((s) => [s.kitchenCovers, s.coversAvailable, s.coversBookable])).toEqual([
      [7, 6, 3],
      [7, 2, 0],
      [7, 10, 7],
      [7, 10, 7],
    ]);
  });

  it('never goes below zero available when a slot is overbooked', () => {
    const [first] = countCovers(slots, [arrival(12, '2026-06-10T17:05:00Z')], 10);
    expect(first).toMatchObject({ coversBooked: 12, coversAvailable: 0 });
  });

  it('counts no arrival for bookings starting outside the opening hours', () => {
    const counted = countCovers(
      slots,
      [arrival(5, '2026-06-10T16:59:00Z', 1), arrival(5, '2026-06-10T18:00:00Z')],
      10,
    );
    expect(counted.reduce((sum, s) => sum + s.coversBooked + s.arrivals, 0)).toBe(0);
  });

  it('puts an arrival in the right one of the two repeated local slots on the autumn switch day', () => {
    const night = slotsOfDay('2026-10-25', [{ open: '01:00', close: '04:00' }], 60, ROME);
    expect(night.map((s) => s.start.slice(11, 16))).toEqual(['01:00', '02:00', '02:00', '03:00']);
    const counted = countCovers(night, [arrival(3, '2026-10-25T01:30:00Z', 60)], 10); // 02:30 CET
    expect(counted.map((s) => s.coversBooked)).toEqual([0, 0, 3, 0]);
    expect(counted.map((s) => s.coversSeated)).toEqual([0, 0, 3, 3]); // seated 02:30–03:30 CET
  });

  it('counts seated covers over the stay of each booking (its effective duration)', () => {
    const counted = countCovers(
      slots, // 17:00Z, 17:15Z, 17:30Z, 17:45Z
      [
        arrival(4, '2026-06-10T17:00:00Z', 30), // 17:00–17:30: first two slots
        arrival(2, '2026-06-10T17:10:00Z', 20), // 17:10–17:30
        arrival(3, '2026-06-10T16:40:00Z', 30), // before opening, seated until 17:10
        arrival(5, '2026-06-10T16:30:00Z', 30), // leaves at 17:00: not seated
      ],
      10,
    );
    expect(counted.map((s) => s.coversSeated)).toEqual([9, 6, 0, 0]);
    expect(counted.map((s) => s.coversBooked)).toEqual([6, 0, 0, 0]);
  });
});

describe('calendar helpers', () => {
  it('gives the weekday of a local date (0 = Sunday)', () => {
    expect(['2026-03-29', '2026-03-30', '2026-10-24'].map(weekdayOf)).toEqual([0, 1, 6]);
  });

  it('gives the local wall-clock time of an instant', () => {
    expect(localDateTimeOf(new Date('2026-07-15T22:30:00Z'), ROME)).toBe('2026-07-16T00:30:00');
    expect(localDateTimeOf(new Date('2026-10-25T01:00:00Z'), ROME)).toBe('2026-10-25T02:00:00');
  });
});
