/**
 * How long an answer may be cached: at most `maxSeconds`, and never past the first lock expiry it shows
 * (an expired lock counts as no lock, so the answer changes then without any write). Pure.
 */
export function cacheTtlSeconds(answer: unknown, maxSeconds: number, now: number): number {
  let ttl = maxSeconds;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'expiresAt' && typeof inner === 'string') {
        ttl = Math.min(ttl, Math.floor((Date.parse(inner) - now) / 1000));
      } else visit(inner);
    }
  };
  visit(answer);
  return Math.max(0, ttl);
}
