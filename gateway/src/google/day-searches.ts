import { mapWithConcurrency } from '@coperto/async';
import { SEARCH_LIMITS, type Acting, type GoogleApi } from './api-calls.js';
import { offeredByStart, restaurantInstants, type PartyOffer } from './mapping.js';

/** Search operations one request runs at once. */
const SEARCH_CONCURRENCY = 4;

/** `date|covers` → that party's day: its places and its offered starts. */
export type Offered = ReadonlyMap<string, PartyOffer>;

export const offeredKey = (date: string, covers: number) => `${date}|${covers}`;

/**
 * The availability search for each date and party size asked: one operation for up to a month of dates and 50 party
 * sizes (SEARCH_LIMITS), which prenotazione answers reading the places once and searching each day once for all its
 * parties. A date is searched for every party size its operation asks (the union of the dates' sizes).
 */
export async function searchDays(
  api: GoogleApi,
  acting: Acting,
  wanted: ReadonlyMap<string, ReadonlySet<number>>,
  timeZone: string,
): Promise<Offered> {
  const operations = chunks([...wanted.keys()].sort(), SEARCH_LIMITS.dates).flatMap((dates) => {
    const parties = [...new Set(dates.flatMap((date) => [...wanted.get(date)!]))].sort((a, b) => a - b);
    return chunks(parties, SEARCH_LIMITS.parties).map((sizes) => ({ dates, parties: sizes }));
  });
  const answers = await mapWithConcurrency(operations, SEARCH_CONCURRENCY, ({ dates, parties }) =>
    api.disponibilita(acting, dates, parties),
  );
  const instants = restaurantInstants(timeZone);
  const offered = new Map<string, PartyOffer>();
  for (const day of answers.flat()) {
    offered.set(offeredKey(day.date, day.covers), offeredByStart(day, instants));
  }
  return offered;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
}
