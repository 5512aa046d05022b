import type { RedisRateLimiterOptions } from './redis-rate-limiter.js';
import type { RateLimiter } from './types.js';

/**
 * Connects the Redis limiter, loading ioredis on the first call: an embedded process (memory limiter) never
 * loads the Redis client.
 */
export async function connectRedisRateLimiter(options: RedisRateLimiterOptions): Promise<RateLimiter> {
  const adapter = await import('./redis-rate-limiter.js');
  return adapter.connectRedisRateLimiter(options);
}
