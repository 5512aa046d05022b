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
}

interface Entry {
  viewer: Viewer;
  validUntilMs: number;
}

export function createVerifiedTokenCache(options: VerifiedTokenCacheOptions = {}): VerifiedTokenCache {
  const maxEntries = options.maxEntries ?? DEFAULT_VERIFIED_TOKEN_CACHE.maxEntries;
  const maxAgeMs = (options.maxAgeSeconds ?? DEFAULT_VERIFIED_TOKEN_CACHE.maxAgeSeconds) * 1000;
  const entries = new Map<string, Entry>();

  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (entry === undefined) return undefined;
      entries.delete(token);
      if (nowMs >= entry.validUntilMs) return undefined;
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
      }
    },
  };
}
