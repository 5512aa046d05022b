import type { BoundedStats } from '@coperto/async';
import { LRUCache } from 'lru-cache';
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
  stats(): BoundedStats;
}

interface Entry {
  viewer: Viewer;
  validUntilMs: number;
}

export function createVerifiedTokenCache(options: VerifiedTokenCacheOptions = {}): VerifiedTokenCache {
  const maxEntries = options.maxEntries ?? DEFAULT_VERIFIED_TOKEN_CACHE.maxEntries;
  const maxAgeMs = (options.maxAgeSeconds ?? DEFAULT_VERIFIED_TOKEN_CACHE.maxAgeSeconds) * 1000;
  const counts = { evictions: 0, hits: 0, misses: 0 };
  // The time is the caller's (nowMs), so the entry keeps its own end rather than an lru-cache TTL.
  const entries =
    maxEntries > 0
      ? new LRUCache<string, Entry>({
          max: maxEntries,
          dispose: (_entry, _token, reason) => {
            if (reason === 'evict') counts.evictions++;
          },
        })
      : undefined;

  return {
    get(token, nowMs) {
      const entry = entries?.get(token);
      if (entry !== undefined && nowMs < entry.validUntilMs) {
        counts.hits++;
        return entry.viewer;
      }
      counts.misses++;
      if (entry !== undefined) {
        entries?.delete(token);
        counts.evictions++;
      }
      return undefined;
    },
    set(token, viewer, expiresAtMs, nowMs) {
      const validUntilMs = Math.min(expiresAtMs, nowMs + maxAgeMs);
      if (validUntilMs > nowMs) entries?.set(token, { viewer, validUntilMs });
    },
    stats: () => ({ entries: entries?.size ?? 0, capacity: maxEntries, ...counts }),
  };
}
