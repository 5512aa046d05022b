import type { DateScalarName } from '@coperto/domain';

/**
 * Regular expressions (JSON Schema `pattern`) of the dates the REST facade accepts: a real calendar day
 * (February 29 in leap years only) of a year from 1970 to 2999, hours 00–23, and an offset under 18 hours.
 * The services' parsers (@coperto/domain's parseLocalDate and parseRestaurantDateTime) accept every one of them;
 * the years are bounded so that a booking's end (its start plus its duration) is still a date they accept.
 */
const YEAR = '(?:19[7-9]\\d|2\\d{3})';
const LEAP_YEAR = '(?:19(?:7[26]|8[048]|9[26])|2\\d(?:0[48]|[2468][048]|[13579][26])|2[048]00)';
const MONTH_DAY = [
  '(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])',
  '(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)',
  '02-(?:0[1-9]|1\\d|2[0-8])',
].join('|');
const DATE = `(?:${YEAR}-(?:${MONTH_DAY})|${LEAP_YEAR}-02-29)`;
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?';
const OFFSET = '(?:[Zz]|[+-](?:(?:0\\d|1[0-7]):?[0-5]\\d|18:?00))';

/** `YYYY-MM-DD`. */
export const LOCAL_DATE_PATTERN = `^${DATE}$`;
/** Restaurant-local wall-clock time (`2026-12-24T20:00`), or an instant with `Z` or an offset. */
export const LOCAL_DATE_TIME_PATTERN = `^${DATE}[Tt ]${TIME}${OFFSET}?$`;
/** An ISO 8601 instant (sync's `modifiedSince`, read by `new Date`): a date-time with `Z` or a `±HH:MM` offset. */
export const TIMESTAMP_PATTERN = `^${DATE}T(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,3})?)?(?:Z|[+-](?:0\\d|1[0-7]):[0-5]\\d)$`;
/** A wall-clock time `HH:MM`, and `24:00` (the end of a day): the GraphQL `LocalTime`. */
export const LOCAL_TIME_PATTERN = '^(?:(?:[01]\\d|2[0-3]):[0-5]\\d|24:00)$';

/**
 * What a REST request may carry for each GraphQL date scalar: the one rule of a date input, stated by
 * /openapi.json and checked by the gateway's request validation (request-schema.ts), with no `format` beside it
 * that nobody checks. Each accepts only text the scalar itself accepts (gateway/test/date-patterns.test.ts).
 * `DateTime` takes an instant without seconds (`1970-01-01T00:00Z`): sync's `modifiedSince` always did.
 */
export const DATE_SCALAR_PATTERNS: Readonly<Record<DateScalarName, string>> = {
  LocalDate: LOCAL_DATE_PATTERN,
  LocalDateTime: LOCAL_DATE_TIME_PATTERN,
  LocalTime: LOCAL_TIME_PATTERN,
  DateTime: TIMESTAMP_PATTERN,
};
