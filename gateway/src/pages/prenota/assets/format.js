// Dates and times as the service writes them: restaurant-local wall-clock `YYYY-MM-DDTHH:MM[:SS]`, shown as they
// are, whatever the browser's own time zone (formatted in UTC so that no zone shifts them).

/** `YYYY-MM-DD` of the browser's today (the date picker's default and minimum). */
export function today(now = new Date()) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `HH:MM` of a local date-time. */
export function timeOf(localDateTime) {
  return localDateTime.slice(11, 16);
}

/** `YYYY-MM-DD` of a local date-time. */
export function dateOf(localDateTime) {
  return localDateTime.slice(0, 10);
}

/** `HH:MM` plus `minutes` (past midnight it wraps: the guest is told the clock time). */
export function addMinutes(hhmm, minutes) {
  const [h, m] = hhmm.split(':').map(Number);
  const total = (((h * 60 + m + minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** A date as the guest reads it, in the page's language: "venerdì 2 aprile 2027" / "Friday, 2 April 2027". */
export function longDate(yyyyMmDd, lang) {
  const [y, m, d] = yyyyMmDd.split('-').map(Number);
  return new Intl.DateTimeFormat(lang === 'it' ? 'it-IT' : 'en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** `m:ss` left until an instant (never negative). */
export function countdown(untilMs, nowMs = Date.now()) {
  const seconds = Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
