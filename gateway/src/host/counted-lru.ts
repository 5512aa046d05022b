import { LRUCache } from 'lru-cache';
import type { BoundedStats } from '@coperto/metrics';

/** A memory of at most `capacity` values by key (the least recently used goes first), counted for bounded_state. */
export interface CountedLru<V> {
  /** The value kept for `key` when `usable` accepts it (a hit); else undefined (a miss). */
  get(key: string, usable?: (value: V) => boolean): V | undefined;
  set(key: string, value: V): void;
  /** Entries against the bound, the hits and misses of `get`, the values dropped for the bound. */
  stats(): BoundedStats;
}

/** lru-cache, counting what the gateway reports of each of its memories (`bounded_state_*`). */
export function createCountedLru<V extends object>(capacity: number): CountedLru<V> {
  const counts = { hits: 0, misses: 0, evictions: 0 };
  const values = new LRUCache<string, V>({
    max: capacity,
    dispose: (_value, _key, reason) => {
      if (reason === 'evict') counts.evictions += 1;
    },
  });
  return {
    get(key, usable) {
      const value = values.get(key);
      const hit = value !== undefined && (usable?.(value) ?? true);
      counts[hit ? 'hits' : 'misses'] += 1;
      return hit ? value : undefined;
    },
    set: (key, value) => void values.set(key, value),
    stats: () => ({ entries: values.size, capacity, ...counts }),
  };
}
