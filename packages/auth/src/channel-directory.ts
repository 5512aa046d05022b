import { createSingleFlight, type BoundedStats } from '@coperto/async';
import { LRUCache } from 'lru-cache';
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
): ChannelDirectory & { stats(): BoundedStats } {
  const activeForMs = options.activeForMs ?? 2000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const counts = { hits: 0, misses: 0, evictions: 0 };
  const known = new LRUCache<string, { active: boolean; until: number }>({
    max: maxEntries,
    dispose: (_entry, _key, reason) => {
      if (reason === 'evict') counts.evictions++;
    },
  });
  const lookups = createSingleFlight();

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
      return lookups.run(key, async () => {
        const active = await lookup.isActive(tenantId, channelId, token);
        known.set(key, { active, until: active ? now() + activeForMs : Infinity });
        return active;
      });
    },
  };
}
