/**
 * Restaurant-local wall-clock times and the UTC instants the service's clock runs on. The simulator counts time
 * in minutes from the service day's local midnight; the service takes local `YYYY-MM-DDTHH:mm:ss` strings
 * and its virtual clock takes UTC epoch milliseconds.
 */

/** Offset (ms) of `timeZone` from UTC at the instant `utcMs`. */
function zoneOffsetMs(utcMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The UTC instant (epoch ms) of `minute` minutes after local midnight of `date` in `timeZone`, read as a
 * wall-clock time (so 18:00 stays 18:00 on a day the clocks change). `minute` may be negative or past a day:
 * minute -1440 is midnight of the day before.
 */
export function localInstant(date: string, minute: number, timeZone: string): number {
  const dayShift = Math.floor(minute / 1440);
  const [y, m, d] = addDays(date, dayShift).split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d) + (minute - dayShift * 1440) * 60_000;
  const first = wall - zoneOffsetMs(wall, timeZone);
  return wall - zoneOffsetMs(first, timeZone);
}

/** `YYYY-MM-DDTHH:mm:00` for `minute` minutes after local midnight of `date` (0 <= minute < 1440). */
export function localDateTime(date: string, minute: number): string {
  const hh = String(Math.floor(minute / 60)).padStart(2, '0');
  const mm = String(minute % 60).padStart(2, '0');
  return `${date}T${hh}:${mm}:00`;
}

/** `date` plus `days` calendar days (YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
