/** How an `expiresAt` string member starts in compact JSON (JSON.stringify's and fast-json-stringify's). */
const EXPIRES_AT = '"expiresAt":"';

/**
 * How long an answer may be cached: at most `maxSeconds`, and never past the first lock expiry it shows (an expired
 * lock counts as no lock, so the answer changes then without any write); 0 for an expiry that is not a date. Read
 * from the answer's compact JSON text: a string member named `expiresAt` is the only place that text can appear
 * unescaped (a string value holding it escapes its quotes). Scanning the text the cache stores anyway costs a fraction
 * of walking the answer's objects, which was 3 % of the gateway's CPU in a loop of status changes and list misses
 * (bench/RESULTS.md). Pure.
 */
export function cacheTtlSeconds(json: string, maxSeconds: number, now: number): number {
  let ttl = maxSeconds;
  for (let at = json.indexOf(EXPIRES_AT); at !== -1; at = json.indexOf(EXPIRES_AT, at + 1)) {
    const start = at + EXPIRES_AT.length;
    const end = json.indexOf('"', start);
    const expires = Date.parse(json.slice(start, end));
    if (!Number.isFinite(expires)) return 0;
    ttl = Math.min(ttl, Math.floor((expires - now) / 1000));
  }
  return Math.max(0, ttl);
}
