import { LRUCache } from 'lru-cache';
import type { BoundedStats } from './bounded-stats.js';
import { createSingleFlight } from './single-flight.js';

export interface KeptLoadsOptions {
  /** How long a loaded value is reused, from the moment its load answered (0: only while its load runs). */
  ttlMs: number;
  /** Keys kept at most (the least recently used is dropped beyond it): tenants, for a per-tenant cache. */
  maxKeys: number;
  /** Clock in ms (tests). Default `performance.now`. */
  now?: () => number;
}

/**
 * Values loaded per key (a tenant's settings asked of another subgraph, a health round) and reused for `ttlMs`
 * in this process: concurrent callers of a key whose load runs share it (createSingleFlight), a rejected load is
 * not kept, and `delete` forgets the key, also a load running for it (its callers still get its answer).
 */
export interface KeptLoads<V> {
  /** The value kept for `key`, else the running load of it, else a new `load()`. */
  get(key: string, load: () => Promise<V>): Promise<V>;
  delete(key: string): void;
  /** Forgets every key, as `delete` does one. */
  clear(): void;
  /** Keys kept now. */
  readonly size: number;
  /** Keys kept, the bound, keys dropped (the bound or their TTL), reads answered from a kept value or not. */
  stats(): Required<BoundedStats>;
}

export function createKeptLoads<V>(options: KeptLoadsOptions): KeptLoads<V> {
  const keeps = options.ttlMs > 0;
  const counts = { evictions: 0, hits: 0, misses: 0 };
  const kept = new LRUCache<string, { value: V }>({
    max: options.maxKeys,
    dispose: (_value, _key, reason) => {
      if (reason === 'evict' || reason === 'expire') counts.evictions += 1;
    },
    ttl: Math.max(1, options.ttlMs),
    // Every read asks the clock (no cached time): a value is never reused past its TTL.
    ttlResolution: 0,
    ...(options.now ? { perf: { now: options.now } } : {}),
  });
  const loads = createSingleFlight();
  /** Bumped by `delete`: a load that began before keeps its answer to itself. */
  let generation = 0;
  return {
    get(key, load) {
      const hit = kept.get(key);
      if (hit) {
        counts.hits += 1;
        return Promise.resolve(hit.value);
      }
      counts.misses += 1;
      return loads.run(key, async () => {
        const began = generation;
        const value = await load();
        if (keeps && began === generation) kept.set(key, { value });
        return value;
      });
    },
    delete(key) {
      generation += 1;
      kept.delete(key);
      loads.forget(key);
    },
    clear() {
      generation += 1;
      kept.clear();
      loads.clear();
    },
    get size() {
      return kept.size;
    },
    stats: () => ({ entries: kept.size, capacity: options.maxKeys, ...counts }),
  };
}
