/**
 * When a delivery that failed is tried again: the waits between attempts, growing (the Standard Webhooks
 * reference schedule). The first attempt is at once; after the last wait's attempt fails the delivery is
 * `fallita`. The waits add up to 27 h 35 min 5 s, so a delivery is retried for at least 24 h.
 */
export const RETRY_WAITS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/**
 * The time of the next attempt after `failedAttempts` attempts of the current series failed (the last at
 * `now`), or null when the schedule is used up: the delivery has failed.
 */
export function nextAttemptAt(
  failedAttempts: number,
  now: Date,
  waits: readonly number[] = RETRY_WAITS_MS,
): Date | null {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1)
    throw new RangeError('failedAttempts must be ≥ 1');
  const wait = waits[failedAttempts - 1];
  return wait === undefined ? null : new Date(now.getTime() + wait);
}
