import { InputChecks, instantOfWallClock, parseLocalDate, preferEnglish } from '@coperto/domain';

/** The query as sent: Italian names with their English aliases (English wins when both are sent). */
export interface DisponibilitaArgs {
  data?: string | null;
  date?: string | null;
  coperti?: number | null;
  covers?: number | null;
  ora?: string | null;
  time?: string | null;
  salaId?: string | null;
  roomId?: string | null;
  limite?: number | null;
  limit?: number | null;
}

/** A checked query. */
export interface DisponibilitaQuery {
  date: string;
  covers: number;
  /** 'HH:MM' as sent, and its instant on `date` in the restaurant's zone; null when not sent. */
  time: string | null;
  wished: number | null;
  salaId: string | null;
  /** At most this many times; null: every time of the day (no `ora` and no `limite`). */
  limit: number | null;
}

export const LIMIT_RANGE = [1, 50] as const;
/** `limite` when `ora` is sent without one: the five nearest times. */
export const DEFAULT_NEAREST_LIMIT = 5;
export const MAX_COVERS = 1000;

const DATE_RULE = 'must be a local date YYYY-MM-DD';
const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * Checks every field at once (400 VALIDATION_FAILED naming each bad one, by its English name as the other
 * bilingual inputs do). Without `ora` every time of the day is answered unless `limite` caps it; with `ora`
 * the nearest `limite` (default 5).
 */
export function checkDisponibilita(args: DisponibilitaArgs, zone: string): DisponibilitaQuery {
  const rawDate = preferEnglish(args.date, args.data);
  const covers = preferEnglish(args.covers, args.coperti);
  const time = preferEnglish(args.time, args.ora);
  const salaId = preferEnglish(args.roomId, args.salaId);
  const limit = preferEnglish(args.limit, args.limite);
  const checks = new InputChecks()
    .required('date', rawDate)
    .required('covers', covers)
    .intInRange('covers', covers, 1, MAX_COVERS)
    .intInRange('limit', limit, ...LIMIT_RANGE)
    .text('roomId', salaId, { min: 1, max: 200 });
  const date = rawDate == null ? null : parseLocalDate(rawDate);
  if (rawDate != null && !date) checks.add('date', DATE_RULE);
  const clock = time == null ? null : CLOCK.exec(time);
  if (time != null && !clock) checks.add('time', "must be a local time 'HH:MM' from 00:00 to 23:59");
  checks.throwIfAny();
  let wished: number | null = null;
  if (clock) {
    const [y, m, d] = date!.split('-').map(Number) as [number, number, number];
    wished = instantOfWallClock(Date.UTC(y, m - 1, d, Number(clock[1]), Number(clock[2])), zone);
  }
  return {
    date: date!,
    covers: covers!,
    time: time ?? null,
    wished,
    salaId: salaId?.trim() ?? null,
    limit: limit ?? (wished === null ? null : DEFAULT_NEAREST_LIMIT),
  };
}

/** The query of the day search for several party sizes (`disponibilitaPerCoperti`), as sent. */
export interface DisponibilitaPartiesArgs {
  data?: readonly string[] | null;
  date?: readonly string[] | null;
  coperti?: readonly number[] | null;
  covers?: readonly number[] | null;
  salaId?: string | null;
  roomId?: string | null;
}

export interface DisponibilitaPartiesQuery {
  /** Distinct, in order. */
  dates: string[];
  /** Distinct, ascending. */
  covers: number[];
  salaId: string | null;
}

/** Party sizes one search may ask about (Google asks up to 20). */
export const MAX_PARTIES = 50;
/** Dates one search may ask about: a month. */
export const MAX_DATES = 31;

/**
 * Checks the query of the search for several dates and party sizes: 1..MAX_DATES local dates, 1..MAX_PARTIES party
 * sizes of 1..MAX_COVERS (400 VALIDATION_FAILED naming each bad field, as `checkDisponibilita`).
 */
export function checkDisponibilitaParties(args: DisponibilitaPartiesArgs): DisponibilitaPartiesQuery {
  const rawDates = preferEnglish(args.date, args.data);
  const covers = preferEnglish(args.covers, args.coperti);
  const salaId = preferEnglish(args.roomId, args.salaId);
  const checks = new InputChecks()
    .required('date', rawDates)
    .required('covers', covers)
    .text('roomId', salaId, { min: 1, max: 200 });
  const listOf = (field: string, list: readonly unknown[] | null | undefined, max: number, what: string) => {
    if (list && (list.length === 0 || list.length > max)) checks.add(field, `must list 1 to ${max} ${what}`);
  };
  listOf('date', rawDates, MAX_DATES, 'dates');
  listOf('covers', covers, MAX_PARTIES, 'party sizes');
  const dates = (rawDates ?? []).map((d) => parseLocalDate(d));
  if (dates.some((d) => !d)) checks.add('date', DATE_RULE);
  for (const c of covers ?? []) checks.intInRange('covers', c, 1, MAX_COVERS);
  checks.throwIfAny();
  return {
    dates: [...new Set(dates as string[])].sort(),
    covers: [...new Set(covers)].sort((a, b) => a - b),
    salaId: salaId?.trim() ?? null,
  };
}
