export type { RateDecision, RateLimiter, RateLimitErrorHandler, RateLimits } from './types.js';
export { createMemoryRateLimiter } from './memory-rate-limiter.js';
export { connectRedisRateLimiter } from './connect-redis-rate-limiter.js';
export type { RedisRateLimiterOptions } from './redis-rate-limiter.js';
