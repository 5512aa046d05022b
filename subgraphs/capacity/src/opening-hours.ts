import type { InputChecks } from '@coperto/domain';
import type { OpeningDayInput } from './generated/resolvers-types.js';

/** Local wall-clock times 'HH:MM'; `close` is after `open` on the same day ('24:00' = midnight). */
export interface OpeningInterval {
  open: string;
  close: string;
}

/** Opening hours of a week: index 0 (Sunday) to 6 (Saturday), each day's intervals sorted by `open`. */
export type WeeklyHours = OpeningInterval[][];

export const MAX_INTERVALS_PER_DAY = 12;

/** Every day 12:00–15:00 and 19:00–23:00. */
export function defaultOpeningHours(): WeeklyHours {
  return Array.from({ length: 7 }, () => [
    { open: '12:00', close: '15:00' },
    { open: '19:00', close: '23:00' },
  ]);
}

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of 'HH:MM' (00:00–23:59, and '24:00' when it is a closing time); null if invalid. */
export function minutesOfClock(text: string, options: { closing?: boolean } = {}): number | null {
  if (options.closing && text === '24:00') return 24 * 60;
  const m = CLOCK.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/**
 * Adds an issue for every problem of the days sent (field paths like `openingHours.1.intervals.0.close`):
 * weekday 0..6 and sent once, valid times, open before close, intervals of a day not overlapping.
 */
export function checkOpeningDays(days: readonly OpeningDayInput[], checks: InputChecks): void {
  const seen = new Set<number>();
  days.forEach((day, d) => {
    const path = `openingHours.${d}`;
    checks.intInRange(`${path}.weekday`, day.weekday, 0, 6);
    if (seen.has(day.weekday))
      checks.add(`${path}.weekday`, `weekday ${day.weekday} is given more than once`);
    seen.add(day.weekday);
    if (day.intervals.length > MAX_INTERVALS_PER_DAY) {
      checks.add(`${path}.intervals`, `must have at most ${MAX_INTERVALS_PER_DAY} intervals`);
    }
    const valid: Array<{ open: number; close: number; index: number }> = [];
    day.intervals.forEach((interval, i) => {
      const at = `${path}.intervals.${i}`;
      const open = minutesOfClock(interval.open);
      const close = minutesOfClock(interval.close, { closing: true });
      if (open === null) checks.add(`${at}.open`, "must be a time 'HH:MM' from 00:00 to 23:59");
      if (close === null) checks.add(`${at}.close`, "must be a time 'HH:MM' from 00:00 to 24:00");
      if (open === null || close === null) return;
      if (close <= open) checks.add(`${at}.close`, `must be after open (${interval.open})`);
      else valid.push({ open, close, index: i });
    });
    valid.sort((a, b) => a.open - b.open);
    for (let i = 1; i < valid.length; i++) {
      if (valid[i]!.open < valid[i - 1]!.close) {
        checks.add(`${path}.intervals.${valid[i]!.index}`, 'overlaps another interval of the same day');
      }
    }
  });
}

/** The week with the days sent replacing those days (pure; the days must have passed checkOpeningDays). */
export function replaceDays(week: WeeklyHours, days: readonly OpeningDayInput[]): WeeklyHours {
  const next = week.map((intervals) => [...intervals]);
  for (const day of days) {
    next[day.weekday] = day.intervals
      .map(({ open, close }) => ({ open, close }))
      .sort((a, b) => minutesOfClock(a.open)! - minutesOfClock(b.open)!);
  }
  return next;
}
