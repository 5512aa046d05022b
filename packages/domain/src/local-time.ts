/**
 * Restaurant-local wall-clock time in an IANA zone (`dataOra` is local time, zone from
 * configuration; an explicit offset or Z is converted). Built on Intl only; DST handled like Temporal's
 * 'compatible' disambiguation: a time in the spring-forward gap moves forward, an ambiguous time in the
 * autumn overlap takes the earlier instant.
 */
const LOCAL_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** True when the runtime knows the IANA zone. */
export function isValidTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

function computeWallClock(utcMs: number, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(utcMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Object.freeze({
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  });
}

/**
 * Wall clocks already computed, by zone and UTC second. `formatToParts` is the dear part of a conversion (ICU),
 * one booking's date needs five of them (the offsets around it, its own, its local date), and a restaurant's
 * bookings fall on few distinct instants (its slots): converting the same instant again costs a map lookup.
 * Bounded: a zone's entries are dropped all at once when full.
 */
const WALL_CLOCK_CACHE_ENTRIES = 4096;
const wallClocks = new Map<string, Map<number, WallClock>>();

function wallClockAt(utcMs: number, zone: string): WallClock {
  // The formatter shows whole seconds: every instant of one second has the same wall clock.
  const second = Math.floor(utcMs / 1000);
  let known = wallClocks.get(zone);
  if (!known) {
    known = new Map();
    wallClocks.set(zone, known);
  }
  let wall = known.get(second);
  if (!wall) {
    wall = computeWallClock(second * 1000, zone);
    if (known.size >= WALL_CLOCK_CACHE_ENTRIES) known.clear();
    known.set(second, wall);
  }
  return wall;
}

/** Minutes to add to UTC to get the zone's wall clock at that instant. */
export function zoneOffsetMinutes(utcMs: number, zone: string): number {
  const w = wallClockAt(utcMs, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

/** The instant of a wall-clock time in `zone` (milliseconds since the epoch). */
export function instantOfWallClock(wallMs: number, zone: string): number {
  const before = zoneOffsetMinutes(wallMs - 14 * 3600_000, zone);
  const after = zoneOffsetMinutes(wallMs + 14 * 3600_000, zone);
  const valid = [...new Set([before, after])]
    .map((offset) => ({ offset, utc: wallMs - offset * 60_000 }))
    .filter(({ offset, utc }) => zoneOffsetMinutes(utc, zone) === offset);
  if (valid.length === 0) return wallMs - before * 60_000; // in the gap: move forward
  return Math.min(...valid.map((v) => v.utc)); // overlap: the earlier instant
}

/**
 * Parses an ISO 8601 date-time. Without a zone designator it is wall-clock time in `zone`; with Z or an
 * offset it is that instant. Null when the text is not a valid date-time (including 2025-02-30).
 */
export function parseRestaurantDateTime(value: string, zone: string): Date | null {
  const m = LOCAL_DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(
    Number,
  ) as [number, number, number, number, number, number];
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const wallMs = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(wallMs);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    return null;
  const designator = m[8];
  if (!designator) return new Date(instantOfWallClock(wallMs, zone));
  if (designator.toUpperCase() === 'Z') return new Date(wallMs);
  const sign = designator.startsWith('-') ? -1 : 1;
  const digits = designator.slice(1).replace(':', '');
  const offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
  if (Math.abs(offset) > 18 * 60) return null;
  return new Date(wallMs - offset * 60_000);
}

/** Parses `YYYY-MM-DD` (a local calendar date); null when invalid. */
export function parseLocalDate(value: string): string | null {
  const m = LOCAL_DATE.exec(value.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value.trim() ? value.trim() : null;
}

/** The local calendar date (`YYYY-MM-DD`) of an instant in `zone`. */
export function localDateOf(instant: Date, zone: string): string {
  const w = wallClockAt(instant.getTime(), zone);
  return `${String(w.year).padStart(4, '0')}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** [start, end) of a local calendar day as instants: 23, 24 or 25 hours long across DST changes. */
export function localDayBounds(date: string, zone: string): { start: Date; end: Date } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const start = instantOfWallClock(Date.UTC(y, m - 1, d), zone);
  const end = instantOfWallClock(Date.UTC(y, m - 1, d + 1), zone);
  return { start: new Date(start), end: new Date(end) };
}

/** The local dates from `from` to `to` inclusive (both `YYYY-MM-DD`). */
export function localDatesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  for (let i = 0; i < 400; i++) {
    const date = new Date(Date.UTC(y, m - 1, d + i)).toISOString().slice(0, 10);
    if (date > to) break;
    dates.push(date);
  }
  return dates;
}
