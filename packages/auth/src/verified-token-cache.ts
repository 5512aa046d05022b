import type { Viewer } from './viewer.js';

/** How many verified tokens are remembered, and for how long at most. */
export interface VerifiedTokenCacheOptions {
  /** @default 10000 */
  maxEntries?: number;
  /** @default 60 */
  maxAgeSeconds?: number;
}

export const DEFAULT_VERIFIED_TOKEN_CACHE = { maxEntries: 10_000, maxAgeSeconds: 60 } as const;

/**
 * Remembers the Viewer of tokens whose signature and claims were verified, keyed by the exact token text, so a
 * client that sends the same token on every request pays for the signature check once a minute instead of on
 * every request. An entry is served only while `now < validUntilMs` (the token's `exp` plus the clock
 * tolerance, capped at `maxAgeSeconds` after it was verified, so a key withdrawn from a JWKS stops being honoured
 * within that time). At most `maxEntries` tokens; the least recently used go first. Only verified tokens are
 * ever stored: a refused token is verified (and refused) again every time.
 */
export interface VerifiedTokenCache {
  get(token: string, nowMs: number): Viewer | undefined;
  /** `expiresAtMs`: the first instant at which the token is no longer accepted (exp + tolerance). */
  set(token: string, viewer: Viewer, expiresAtMs: number, nowMs: number): void;
  /** What it holds against its bound (`bounded_state_*{structure="auth_verified_tokens"}`). */
  stats(): BoundedFigures;
}

/**
 * A bounded structure's figures, as `@coperto/metrics` reports them (`bounded_state_*`): entries held, the bound,
 * entries dropped for the bound or their age, and for a cache the reads it answered and could not.
 */
export interface BoundedFigures {
  entries: number;
  capacity: number;
  evictions: number;
  hits?: number;
  misses?: number;
}

interface Entry {
  viewer: Viewer;
  validUntilMs: number;
}

export function createVerifiedTokenCache(options: VerifiedTokenCacheOptions = {}): VerifiedTokenCache {
  const maxEntries = options.maxEntries ?? DEFAULT_VERIFIED_TOKEN_CACHE.maxEntries;
  const maxAgeMs = (options.maxAgeSeconds ?? DEFAULT_VERIFIED_TOKEN_CACHE.maxAgeSeconds) * 1000;
  const entries = new Map<string, Entry>();
  let hits = 0;
  let misses = 0;
  let evictions = 0;

  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (entry === undefined) {
        misses++;
        return undefined;
      }
      entries.delete(token);
      if (nowMs >= entry.validUntilMs) {
        misses++;
        evictions++;
        return undefined;
      }
      hits++;
      entries.set(token, entry); // Map order is the LRU order
      return entry.viewer;
    },
    set(token, viewer, expiresAtMs, nowMs) {
      const validUntilMs = Math.min(expiresAtMs, nowMs + maxAgeMs);
      if (maxEntries === 0 || validUntilMs <= nowMs) return;
      entries.delete(token);
      entries.set(token, { viewer, validUntilMs });
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
        evictions++;
      }
    },
    stats: () => ({ entries: entries.size, capacity: maxEntries, evictions, hits, misses }),
  };
}
