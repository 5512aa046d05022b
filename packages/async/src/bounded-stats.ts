/**
 * What a bounded in-process structure reports (a per-tenant map, cache or budget): how many entries it holds,
 * the most it may hold, and its running totals. Structures expose it as `stats()`; `@coperto/metrics` reads it at
 * each scrape (`bounded_state_*`).
 */
export interface BoundedStats {
  /** Entries held now. */
  entries: number;
  /** The most it holds (its bound). */
  capacity: number;
  /** Entries dropped for the bound (or their age) so far. */
  evictions: number;
  /** Reads answered from it so far (caches only). */
  hits?: number;
  /** Reads it could not answer so far (caches only). */
  misses?: number;
}
