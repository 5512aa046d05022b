/** How many event ids each subscription group remembers. */
export const RECENT_IDS_KEPT = 1000;

/**
 * The ids every group's memory holds now, and how many were forgotten for the bound, across the groups of one
 * subscription server (`bounded_state_*{structure="subscription_recent_ids"}`).
 */
export interface RecentIdsTally {
  entries: number;
  evictions: number;
}

/**
 * The bus delivers at least once (an outbox relay may publish an event again after a lost acknowledgement),
 * so a subscription drops an event whose id it delivered recently. Bounded: remembers the last `capacity` ids.
 * With a `tally`, keeps it up to date; `release` (the group ended) takes its ids out of it.
 */
export function createRecentIds(capacity = RECENT_IDS_KEPT, tally?: RecentIdsTally) {
  const ids = new Set<string>();
  return {
    /** True when `id` was seen already; otherwise remembers it and returns false. */
    seenBefore(id: string): boolean {
      if (ids.has(id)) return true;
      ids.add(id);
      if (tally) tally.entries++;
      if (ids.size > capacity) {
        ids.delete(ids.values().next().value as string);
        if (tally) {
          tally.entries--;
          tally.evictions++;
        }
      }
      return false;
    },
    /** Forgets everything (the stream ended). Idempotent. */
    release(): void {
      if (tally) tally.entries -= ids.size;
      ids.clear();
    },
  };
}
