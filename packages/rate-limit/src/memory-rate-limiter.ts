import { RateLimiterMemory } from 'rate-limiter-flexible';
import { burstyConsumer, decide } from './bursty.js';
import type { RateLimiter, RateLimits } from './types.js';

/** The limiter of one process (embedded mode): counts in memory, expired windows are dropped by timers. */
export function createMemoryRateLimiter(limits: RateLimits): RateLimiter {
  const consumer = burstyConsumer(limits, 'rl', (options) => new RateLimiterMemory(options));
  return {
    consume: (key) => decide(consumer, key, () => {}),
    close: async () => {},
  };
}
