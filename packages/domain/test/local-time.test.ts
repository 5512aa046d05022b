import { describe, expect, it, vi } from 'vitest';
import {
  localDateOf,
  localDatesBetween,
  localDayBounds,
  parseLocalDate,
  parseRestaurantDateTime,
} from '../src/local-time.js';

const ROME = 'Europe/Rome';

describe('restaurant-local time', () => {
  it.each([
    ['2026-01-15T20:00', '2026-01-15T19:00:00.000Z'], // winter, UTC+1
    ['2026-07-15T20:00:00', '2026-07-15T18:00:00.000Z'], // summer, UTC+2
    ['2026-07-15T20:00:00Z', '2026-07-15T20:00:00.000Z'], // explicit Z
    ['2026-07-15T20:00:00+05:30', '2026-07-15T14:30:00.000Z'], // explicit offset
    ['2026-03-29T02:30', '2026-03-29T01:30:00.000Z'], // spring-forward gap: moves forward to 03:30 local
    ['2026-10-25T02:30', '2026-10-25T00:30:00.000Z'], // autumn overlap: the earlier instant
  ])('reads %s in Europe/Rome as %s', (text, iso) => {
    expect(parseRestaurantDateTime(text, ROME)?.toISOString()).toBe(iso);
  });

  it.each(['2026-02-30T20:00', 'tomorrow', '2026-13-01T10:00', '2026-01-01T24:00', '', '2026-01-01'])(
    'refuses %j',
    (text) => {
      expect(parseRestaurantDateTime(text, ROME)).toBeNull();
    },
  );

  it('has 23-hour and 25-hour local days on the two yearly switch days', () => {
    const spring = localDayBounds('2026-03-29', ROME);
    const autumn = localDayBounds('2026-10-25', ROME);
    const normal = localDayBounds('2026-06-01', ROME);
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3600_000);
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3600_000);
    expect(normal.end.getTime() - normal.start.getTime()).toBe(24 * 3600_000);
    expect(spring.start.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(autumn.end.toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });

  it('converts an instant it has converted before without asking the zone data again', () => {
    const text = '2031-03-14T20:00:00';
    const first = parseRestaurantDateTime(text, ROME)!;
    const firstDate = localDateOf(first, ROME);
    const formatToParts = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      const again = parseRestaurantDateTime(text, ROME)!;
      expect(again.toISOString()).toBe('2031-03-14T19:00:00.000Z');
      expect(localDateOf(again, ROME)).toBe(firstDate);
      expect(formatToParts).not.toHaveBeenCalled();
      // Another instant of the same second has the same wall clock; another second is asked for.
      expect(localDateOf(new Date(again.getTime() + 999), ROME)).toBe('2031-03-14');
      expect(formatToParts).not.toHaveBeenCalled();
      expect(localDateOf(new Date(again.getTime() + 1000), ROME)).toBe('2031-03-14');
      expect(formatToParts).toHaveBeenCalledTimes(1);
    } finally {
      formatToParts.mockRestore();
    }
  });

  it('gives the local date of an instant', () => {
    expect(localDateOf(new Date('2026-07-15T22:30:00Z'), ROME)).toBe('2026-07-16');
    expect(localDateOf(new Date('2026-07-15T21:59:00Z'), ROME)).toBe('2026-07-15');
  });

  it('validates local dates and lists ranges', () => {
    expect(parseLocalDate('2026-02-28')).toBe('2026-02-28');
    expect(parseLocalDate('2026-02-29')).toBeNull();
    expect(localDatesBetween('2026-02-27', '2026-03-02')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
  });
});
