import { instantOfWallClock, localDatesBetween } from '@coperto/domain';

/** Capacity's opening hours: one entry per weekday (0 = Sunday), intervals 'HH:MM' ('24:00' = midnight). */
export interface OpeningDay {
  weekday: number;
  intervals: ReadonlyArray<{ open: string; close: string }>;
}

/** A service: one opening interval of one local date, with its instants. */
export interface Service {
  data: string;
  inizio: string;
  fine: string;
  startMs: number;
  endMs: number;
}

/** The most local dates one report covers (a year; a range ending before it starts has no service). */
export const MAX_REPORT_DAYS = 366;

const wallMs = (date: string, clock: string): number => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = clock.split(':').map(Number) as [number, number];
  return Date.UTC(y, m - 1, d, h, min);
};

/** The weekday (0 = Sunday) of a local date. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** Every service of the local dates dal..al in `zone`, in time order. */
export function servicesBetween(
  dal: string,
  al: string,
  zone: string,
  openingHours: readonly OpeningDay[],
): Service[] {
  const byWeekday = new Map(openingHours.map((day) => [day.weekday, day.intervals]));
  return localDatesBetween(dal, al).flatMap((data) =>
    [...(byWeekday.get(weekdayOf(data)) ?? [])]
      .sort((a, b) => a.open.localeCompare(b.open))
      .map((interval) => ({
        data,
        inizio: interval.open,
        fine: interval.close,
        startMs: instantOfWallClock(wallMs(data, interval.open), zone),
        endMs: instantOfWallClock(wallMs(data, interval.close), zone),
      })),
  );
}

/** [start, end) of the local dates dal..al as instants. */
export function rangeBounds(dal: string, al: string, zone: string): { startMs: number; endMs: number } {
  const startMs = instantOfWallClock(wallMs(dal, '00:00'), zone);
  const [y, m, d] = al.split('-').map(Number) as [number, number, number];
  return { startMs, endMs: instantOfWallClock(Date.UTC(y, m - 1, d + 1), zone) };
}
