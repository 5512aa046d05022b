import { CacheCounters, throttledWarn } from './fail-open.js';
import { humanBytes } from './human-bytes.js';
import { assertPrefix } from './keys.js';
import { createSingleFlight } from '@coperto/async';
import { tenantViews, type RawStore } from './tenant-view.js';
import type { Cache, CacheErrorHandler } from './types.js';

export interface MemoryCacheOptions {
  /** First key segment (default `coperto`), as for Redis, so both adapters build the same keys. */
  keyPrefix?: string;
  /** Entries kept at most; beyond it the least recently used go first (default 10 000). */
  maxEntries?: number;
  /** Clock in ms (tests inject one to step over TTLs). Default `Date.now`. */
  now?: () => number;
  /** Called for operations that failed open (only after `close()` for this adapter). */
  onError?: CacheErrorHandler;
}

interface Entry {
  json: string;
  expiresAt: number;
}

/** Sets between two sweeps of expired entries (expiry is otherwise checked lazily, on read). */
const SWEEP_EVERY = 1000;

/**
 * The in-process twin of the Redis cache, used in embedded mode and unit tests. Same keys, same JSON copy
 * semantics, same TTL rules: an entry past its TTL is never returned (checked on read), and expired entries are
 * swept every 1000 writes so that keys nobody reads again do not pile up.
 */
export function createMemoryCache(options: MemoryCacheOptions = {}): Cache {
  const prefix = options.keyPrefix ?? 'coperto';
  assertPrefix(prefix);
  const maxEntries = options.maxEntries ?? 10_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new TypeError('maxEntries must be a positive integer');
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let closed = false;
  let setsSinceSweep = 0;
  let evictions = 0;

  const ensureOpen = () => {
    if (closed) throw new Error('cache closed');
  };

  const sweep = () => {
    const t = now();
    for (const [key, entry] of entries) {
      if (entry.expiresAt > t) continue;
      entries.delete(key);
      evictions += 1;
    }
    setsSinceSweep = 0;
  };

  const store: RawStore = {
    async get(fullKey) {
      ensureOpen();
      const entry = entries.get(fullKey);
      if (!entry) return null;
      if (entry.expiresAt <= now()) {
        entries.delete(fullKey);
        evictions += 1;
        return null;
      }
      // Re-insert: Map order is the LRU order.
      entries.delete(fullKey);
      entries.set(fullKey, entry);
      return entry.json;
    },
    async set(fullKey, json, ttlMs) {
      ensureOpen();
      entries.delete(fullKey);
      entries.set(fullKey, { json, expiresAt: now() + ttlMs });
      setsSinceSweep += 1;
      if (setsSinceSweep >= SWEEP_EVERY || entries.size > maxEntries) sweep();
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
        evictions += 1;
      }
    },
    async delete(fullKey) {
      ensureOpen();
      entries.delete(fullKey);
    },
  };

  const counters = new CacheCounters(options.onError ?? throttledWarn('cache:memory'));
  const context = { prefix, store, counters, loads: createSingleFlight() };
  const views = tenantViews(context);

  return {
    forTenant: views.forTenant,
    bounded: () => ({
      tenant_views: views.stats(),
      entries: { entries: entries.size, capacity: maxEntries, evictions },
    }),
    async ping() {
      ensureOpen();
      return 0;
    },
    connected: () => !closed,
    async details() {
      ensureOpen();
      let bytes = 0;
      for (const [key, entry] of entries) bytes += 2 * (key.length + entry.json.length) + 64;
      return { memoryUsed: humanBytes(bytes), connectedClients: 1, keys: entries.size };
    },
    stats: () => counters.snapshot(),
    async close() {
      closed = true;
      entries.clear();
      context.loads.clear();
    },
  };
}
