import type { BoundedFigures } from './verified-token-cache.js';
import type { TenantId } from './viewer.js';

/**
 * Tells whether a booking channel still exists, so that a deleted channel's key is refused although its signature
 * holds. The channel subgraph owns channels; every other process asks it (server-kit wires that) through
 * `cachedChannelDirectory`, so a deletion is seen everywhere within the cache's lifetime.
 */
export interface ChannelDirectory {
  /** `token`: the channel key itself, which authorizes asking the channel subgraph. */
  isActive(tenantId: TenantId, channelId: string, token: string): Promise<boolean>;
}

export interface CachedChannelDirectoryOptions {
  /** How long an answer "still exists" is reused: a deleted channel's key is refused at most this late. @default 2000 */
  activeForMs?: number;
  /** Channels remembered (active or deleted); the least recently used go first. @default 10000 */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Wraps a lookup with a per-process memory: "active" is reused for `activeForMs`, "deleted" for good (a deleted
 * channel never comes back). Concurrent lookups of one channel share one call; a lookup that throws is not kept.
 */
export function cachedChannelDirectory(
  lookup: ChannelDirectory,
  options: CachedChannelDirectoryOptions = {},
): ChannelDirectory & { stats(): BoundedFigures } {
  const activeForMs = options.activeForMs ?? 2000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const known = new Map<string, { active: boolean; until: number }>();
  const inFlight = new Map<string, Promise<boolean>>();
  const counts = { hits: 0, misses: 0, evictions: 0 };

  function remember(key: string, active: boolean) {
    known.delete(key);
    known.set(key, { active, until: active ? now() + activeForMs : Infinity });
    for (const oldest of known.keys()) {
      if (known.size <= maxEntries) break;
      known.delete(oldest);
      counts.evictions++;
    }
  }

  return {
    stats: () => ({ entries: known.size, capacity: maxEntries, ...counts }),
    async isActive(tenantId, channelId, token) {
      const key = `${tenantId}\u0000${channelId}`;
      const entry = known.get(key);
      if (entry !== undefined && now() < entry.until) {
        counts.hits++;
        return entry.active;
      }
      counts.misses++;
      let pending = inFlight.get(key);
      if (pending === undefined) {
        pending = lookup.isActive(tenantId, channelId, token).then(
          (active) => {
            inFlight.delete(key);
            remember(key, active);
            return active;
          },
          (error: unknown) => {
            inFlight.delete(key);
            throw error;
          },
        );
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
