import type { RedisCacheOptions } from './redis-cache.js';
import type { Cache } from './types.js';

/**
 * Connects to Redis, loading the client on the first call: a process that never connects (embedded mode) never
 * loads it (≈ 16 MB of RSS).
 */
export async function connectRedisCache(options: RedisCacheOptions): Promise<Cache> {
  const adapter = await import('./redis-cache.js');
  return adapter.connectRedisCache(options);
}
