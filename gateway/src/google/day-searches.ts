import { mapWithConcurrency } from '@coperto/async';
import { PARTIES_PER_OPERATION, type Acting, type GoogleApi } from './api-calls.js';
import { offeredByStart, restaurantInstants, type PartyOffer } from './mapping.js';

/** Search operations one request runs at once. */
const SEARCH_CONCURRENCY = 4;

/** `date|covers` → that party's day: its places and its offered starts. */
export type Offered = ReadonlyMap<string, PartyOffer>;

export const offeredKey = (date: string, covers: number) => `${date}|${covers}`;

/**
 * The availability search for each date and party size asked: one operation per date (and per
 * PARTIES_PER_OPERATION party sizes), which prenotazione answers with one search of the day for all its parties.
 */
export async function searchDays(
  api: GoogleApi,
  acting: Acting,
  wanted: ReadonlyMap<string, ReadonlySet<number>>,
  timeZone: string,
): Promise<Offered> {
  const operations = [...wanted].flatMap(([date, parties]) => {
    const sorted = [...parties].sort((a, b) => a - b);
    return Array.from({ length: Math.ceil(sorted.length / PARTIES_PER_OPERATION) }, (_, i) => ({
      date,
      parties: sorted.slice(i * PARTIES_PER_OPERATION, (i + 1) * PARTIES_PER_OPERATION),
    }));
  });
  const answers = await mapWithConcurrency(operations, SEARCH_CONCURRENCY, ({ date, parties }) =>
    api.disponibilita(acting, date, parties),
  );
  const instants = restaurantInstants(timeZone);
  const offered = new Map<string, PartyOffer>();
  operations.forEach(({ date }, index) => {
    for (const day of answers[index]!)
      offered.set(offeredKey(date, day.covers), offeredByStart(day, instants));
  });
  return offered;
}
