/** setTimeout's longest delay (about 24.8 days); longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The `exp` claim (seconds since the epoch) of a compact JWT that was already verified, or undefined. */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Calls `onExpired` once the token's `exp` has passed (at once if it already has), so a socket does not
 * outlive the token it was opened with. Returns the cancellation. The timers do not keep the process alive.
 */
export function onTokenExpiry(
  token: string,
  onExpired: () => void,
  now: () => number = Date.now,
): () => void {
  const exp = tokenExpiry(token);
  if (exp === undefined) return () => {};
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const delay = exp * 1000 - now();
    if (delay <= 0) return onExpired();
    timer = setTimeout(arm, Math.min(delay, MAX_TIMER_MS));
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}
