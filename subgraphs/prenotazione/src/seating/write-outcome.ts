import { UnavailableError } from '@coperto/errors';

/**
 * Whether a store write that failed may have been applied all the same: the store stopped answering (killed,
 * paused, the connection dropped) after the write was sent, so the reply was lost and the outcome is unknown.
 * Tables claimed for such a write are not released: if it was applied, its holds protect the booking it wrote; if
 * not, they count as in flight for 30 s and then as stale (holdVerdict). Releasing them, as after a refusal, could
 * leave a written booking without holds, free for another booking of the same tables (torture run of 2026-11-25).
 */
export function mayHaveBeenApplied(error: unknown): boolean {
  return error instanceof UnavailableError;
}
