/** An endpoint whose deliveries have all failed for this long is switched off (event `webhooks.disabled`). */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

/**
 * Whether an endpoint is switched off after a failed attempt: nothing was delivered to it since `failingSince`
 * (its first failed attempt after its last success, or after it was switched on), and that is
 * `DISABLE_AFTER_MS` or more ago. An endpoint that simply had no events is never failing.
 */
export function shouldDisable(
  failingSince: string | null | undefined,
  now: Date,
  after = DISABLE_AFTER_MS,
): boolean {
  if (!failingSince) return false;
  return now.getTime() - Date.parse(failingSince) >= after;
}
