// The report view's pure part: the report of GET /api/report turned into the series its charts
// draw. Every field is read by its English name, else its Italian one (the API returns both). No DOM here.

/** ISO weekdays, Monday first. */
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const pick = (object, english, italian) => object?.[english] ?? object?.[italian];

/** The ISO weekday index (0 Monday .. 6 Sunday) of a `YYYY-MM-DD` date. */
export function weekdayIndex(date) {
  return (new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7;
}

/** Covers by hour: `{ labels: ['19:00', …], covers: [n, …] }` in the report's order. */
export function coversByHour(report) {
  const hours = pick(report, 'byHour', 'perOra') ?? [];
  return {
    labels: hours.map((row) => pick(row, 'hour', 'ora')),
    covers: hours.map((row) => pick(row, 'covers', 'coperti') ?? 0),
  };
}

/**
 * No-show rate by weekday, in percent: each weekday's services pooled exactly, the no-shows of its services over the
 * bookings that were due in them (`bookingsDue`, the rate's own denominator; docs/reports.md). `null` for a weekday
 * without a service where a booking was due. `services` counts the services behind each figure.
 */
export function noShowByWeekday(report) {
  const pooled = WEEKDAYS.map(() => ({ noShows: 0, due: 0, services: 0 }));
  for (const row of pick(report, 'services', 'servizi') ?? []) {
    const due = pick(row, 'bookingsDue', 'prenotazioniDovute') ?? 0;
    if (due <= 0) continue;
    const day = pooled[weekdayIndex(pick(row, 'date', 'data'))];
    day.noShows += pick(row, 'noShows', 'noShow') ?? 0;
    day.due += due;
    day.services += 1;
  }
  return {
    labels: WEEKDAYS,
    rates: pooled.map((d) => (d.due ? round((100 * d.noShows) / d.due, 1) : null)),
    services: pooled.map((d) => d.services),
  };
}

/**
 * Actual (median) against configured turn times, in minutes, by the rows of the turn-time configuration: each
 * row's `covers` is its `maxCovers`, so a row stands for the parties above the previous row's (`3–4 covers`).
 * `null` where nothing was seated.
 */
export function turnTimes(report) {
  const rows = [...(pick(report, 'turns', 'turni') ?? [])].sort(
    (a, b) => pick(a, 'covers', 'coperti') - pick(b, 'covers', 'coperti'),
  );
  const bounds = rows.map((row) => pick(row, 'covers', 'coperti'));
  return {
    labels: bounds.map((max, i) => partySizes(i === 0 ? 1 : bounds[i - 1] + 1, max)),
    actual: rows.map((row) => pick(row, 'medianMinutes', 'medianaMinuti') ?? null),
    configured: rows.map((row) => pick(row, 'configuredMinutes', 'configuratiMinuti') ?? null),
    seatings: rows.map((row) => pick(row, 'seatings', 'sedute') ?? 0),
  };
}

/**
 * Revenue per available seat-hour of each service (`Fri 14/06 19:00`), in the report's order; `null` for a
 * service without an available seat (a gap in the line).
 */
export function revPashByService(report) {
  const rows = pick(report, 'services', 'servizi') ?? [];
  return {
    labels: rows.map((row) => serviceLabel(pick(row, 'date', 'data'), pick(row, 'start', 'inizio'))),
    values: rows.map((row) => nullableRound(pick(row, 'revPash', 'ricavoPerPostoOra'), 2)),
  };
}

/** The period's totals as [label, text] pairs, in the order the view lists them. */
export function totalsSummary(report) {
  const t = pick(report, 'totals', 'totali') ?? {};
  const percent = (value) => (value === null || value === undefined ? '–' : `${round(100 * value, 1)} %`);
  const amount = (value) => (value === null || value === undefined ? '–' : value.toFixed(2));
  return [
    ['Covers booked', String(pick(t, 'coversBooked', 'copertiPrenotati') ?? 0)],
    ['Covers seated', String(pick(t, 'coversSeated', 'copertiSeduti') ?? 0)],
    ['Walk-ins', String(pick(t, 'walkIns', 'walkIn') ?? 0)],
    ['No-shows', String(pick(t, 'noShows', 'noShow') ?? 0)],
    ['No-show rate', percent(pick(t, 'noShowRate', 'tassoNoShow'))],
    ['Cancellations', String(pick(t, 'cancellations', 'annullamenti') ?? 0)],
    ['Seat utilisation', percent(pick(t, 'seatUtilisation', 'utilizzoPosti'))],
    ['Revenue', amount(pick(t, 'revenue', 'ricavo'))],
    ['RevPASH', amount(pick(t, 'revPash', 'ricavoPerPostoOra'))],
  ];
}

function serviceLabel(date, start) {
  const [, month, day] = date.split('-');
  return `${WEEKDAYS[weekdayIndex(date)]} ${day}/${month} ${start}`;
}

const partySizes = (min, max) =>
  min >= max ? `${max} ${max === 1 ? 'cover' : 'covers'}` : `${min}–${max} covers`;
const nullableRound = (value, digits) =>
  value === null || value === undefined ? null : round(value, digits);
const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;
