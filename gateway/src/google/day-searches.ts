import type { Acting, GoogleApi } from './api-calls.js';
import { mapWithConcurrency } from '@coperto/async';
import { offeredByStart } from './mapping.js';

/** Search operations one request runs at once. */
const SEARCH_CONCURRENCY = 4;

/** `date|covers` → the offered starts (seconds since the epoch) with the longest stay each allows (minutes). */
export type Offered = ReadonlyMap<string, ReadonlyMap<number, number>>;

export const offeredKey = (date: string, covers: number) => `${date}|${covers}`;

/**
 * The availability search for each date and party size asked: one operation per date (and per
 * `api.partiesPerOperation` party sizes), so the parties of a day share its reads.
 */
export async function searchDays(
  api: GoogleApi,
  acting: Acting,
  wanted: ReadonlyMap<string, ReadonlySet<number>>,
  timeZone: string,
): Promise<Offered> {
  const per = api.partiesPerOperation;
  const operations = [...wanted].flatMap(([date, parties]) => {
    const sorted = [...parties].sort((a, b) => a - b);
    return Array.from({ length: Math.ceil(sorted.length / per) }, (_, i) => ({
      date,
      parties: sorted.slice(i * per, (i + 1) * per),
    }));
  });
  const answers = await mapWithConcurrency(operations, SEARCH_CONCURRENCY, ({ date, parties }) =>
    api.disponibilita(acting, date, parties),
  );
  const offered = new Map<string, ReadonlyMap<number, number>>();
  operations.forEach(({ date, parties }, index) => {
    parties.forEach((covers, p) =>
      offered.set(offeredKey(date, covers), offeredByStart(answers[index]![p]!, timeZone)),
    );
  });
  return offered;
}
