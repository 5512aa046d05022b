import { LRUCache } from 'lru-cache';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { burstyConsumer, decide } from './bursty.js';
import type { RateLimiter, RateLimits } from './types.js';

/** Keys (tenants) one process holds budgets for at once; beyond it the least recently seen key's budget goes. */
export const MAX_MEMORY_RATE_KEYS = 50_000;

/**
 * The limiter of one process (embedded mode): counts in memory; a key's windows are dropped by
 * rate-limiter-flexible's timers once they end, and at most `maxKeys` keys are held at once (the least recently
 * seen one's budget is forgotten beyond it: that key starts a fresh budget), so its memory follows the keys
 * active within one window, never every key ever seen.
 */
export function createMemoryRateLimiter(limits: RateLimits, maxKeys = MAX_MEMORY_RATE_KEYS): RateLimiter {
  const windows: RateLimiterMemory[] = [];
  const consumer = burstyConsumer(limits, 'rl', (options) => {
    const window = new RateLimiterMemory(options);
    windows.push(window);
    return window;
  });
  const longestWindowMs = Math.max(...windows.map((w) => w.duration)) * 1000;
  let evictions = 0;
  /**
   * The keys whose windows may still run, most recently seen last. Made on the first request: lru-cache allocates
   * its arrays for `max` entries up front (≈ 2 MB at 50,000 keys with TTLs), which a budget no request has used yet
   * (a deployment with no booking channel) should not hold.
   */
  let held: LRUCache<string, true> | undefined;
  const heldKeys = () =>
    (held ??= new LRUCache<string, true>({
      max: maxKeys,
      ttl: longestWindowMs,
      dispose: (_value, key, reason) => {
        if (reason !== 'evict') return;
        evictions += 1;
        for (const window of windows) void window.delete(key).catch(() => false);
      },
    }));
  return {
    consume(key) {
      heldKeys().set(key, true);
      return decide(consumer, key, () => {});
    },
    bounded() {
      if (!held) return { entries: 0, capacity: maxKeys, evictions };
      held.purgeStale();
      return { entries: held.size, capacity: maxKeys, evictions };
    },
    close: async () => {},
  };
}
