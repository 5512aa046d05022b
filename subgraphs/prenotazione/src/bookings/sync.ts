import type { PrenotazioneRecord } from './prenotazione-record.js';

export const SYNC_DEFAULT_LIMIT = 500;
export const SYNC_MAX_LIMIT = 5000;
export const SYNC_DEFAULT_WINDOW_DAYS = 7;
/**
 * Changes younger than this are left for the next call: a write stamps `updatedAt` a moment before it is
 * stored, so a change is only handed out once every write stamped before the watermark has landed.
 */
export const SYNC_SETTLE_MS = 1000;

export interface SyncPagePlan {
  items: PrenotazioneRecord[];
  hasMore: boolean;
  serverTime: string;
}

/**
 * Cuts a page from the changes sorted by (updatedAt, id), fetched with limit + 1. When more remain, the page
 * ends after a whole group of equal timestamps (`sameAsLast` holds that whole group), and serverTime is that
 * timestamp: the next call (modifiedSince = serverTime, strictly after) neither repeats nor skips a change.
 * Without more, serverTime is the watermark. Pure.
 */
export function planSyncPage(
  fetched: readonly PrenotazioneRecord[],
  limit: number,
  watermark: string,
  /** Every change with the timestamp `groupToComplete` named, when it named one. */
  group: readonly PrenotazioneRecord[] = [],
): SyncPagePlan {
  if (fetched.length <= limit) return { items: [...fetched], hasMore: false, serverTime: watermark };
  const last = fetched[limit - 1]!;
  const next = fetched[limit]!;
  if (next.updatedAt !== last.updatedAt) {
    return { items: fetched.slice(0, limit), hasMore: true, serverTime: last.updatedAt };
  }
  const before = fetched.filter((r) => r.updatedAt < last.updatedAt);
  return { items: [...before, ...group], hasMore: true, serverTime: last.updatedAt };
}

/** The timestamp whose whole group must be fetched because the page boundary falls inside it, or null. */
export function groupToComplete(fetched: readonly PrenotazioneRecord[], limit: number): string | null {
  if (fetched.length <= limit) return null;
  const last = fetched[limit - 1]!;
  return fetched[limit]!.updatedAt === last.updatedAt ? last.updatedAt : null;
}
