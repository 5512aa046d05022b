export type { Cache, CacheDetails, CacheErrorHandler, CacheStats, JsonValue, TenantCache } from './types.js';
export { createMemoryCache, type MemoryCacheOptions } from './memory-cache.js';
export { connectRedisCache } from './connect-redis-cache.js';
export type { RedisCacheOptions } from './redis-cache.js';
export { tenantKey, boundedKey, MAX_KEY_LENGTH } from './keys.js';
export { bumpReadScope, READ_SCOPES, readScopeKey, readScopesKey, readScopeVersion } from './read-scope.js';
