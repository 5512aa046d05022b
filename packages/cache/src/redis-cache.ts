import { Redis } from 'ioredis';
import { CacheCounters, throttledWarn } from './fail-open.js';
import { assertPrefix } from './keys.js';
import { parseRedisInfo } from './redis-info.js';
import { createSingleFlight } from '@coperto/async';
import { tenantViews, type RawStore } from './tenant-view.js';
import type { Cache, CacheErrorHandler } from './types.js';
import { withTimeout } from '@coperto/async';

export interface RedisCacheOptions {
  /** `redis://[user:password@]host:port[/db]` */
  url: string;
  /** First key segment (default `coperto`): keys are `<keyPrefix>:<tenantId>:<key>`. */
  keyPrefix?: string;
  /**
   * How long `connectRedisCache` waits for the first connection, and the TCP connect timeout of each attempt
   * (default 2000 ms). When Redis is not up by then the cache is returned anyway, failing open and reconnecting.
   */
  connectTimeoutMs?: number;
  /** Bound on every command, so that a hung (SIGSTOPped, overloaded) Redis never hangs a request. Default 500 ms. */
  commandTimeoutMs?: number;
  /** Upper bound of the reconnect back-off (default 2000 ms). Reconnection never gives up. */
  maxReconnectDelayMs?: number;
  /** Called for operations that failed open (default: a throttled `console.warn`). */
  onError?: CacheErrorHandler;
}

/**
 * Opens the Redis cache. The client never queues commands while disconnected (they fail at once and the cache
 * answers as a miss), bounds every command by `commandTimeoutMs`, and reconnects for ever with a capped
 * back-off. Resolves once connected, or after `connectTimeoutMs` with a cache that fails open until Redis is up.
 */
export async function connectRedisCache(options: RedisCacheOptions): Promise<Cache> {
  const prefix = options.keyPrefix ?? 'coperto';
  assertPrefix(prefix);
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const maxReconnectDelayMs = options.maxReconnectDelayMs ?? 2000;
  const warn = options.onError ?? throttledWarn('cache:redis');

  const redis = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 100, maxReconnectDelayMs),
  });
  let lastConnectionWarning = -Infinity;
  // Without a listener ioredis prints every failed reconnect; one line per 10 s is enough.
  redis.on('error', (error: Error) => {
    if (Date.now() - lastConnectionWarning < 10_000) return;
    lastConnectionWarning = Date.now();
    console.warn(`[cache:redis] connection: ${error.message}`);
  });

  const ready = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, connectTimeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  redis.connect().catch(() => undefined); // failures surface through 'error'; retryStrategy keeps trying
  await ready;

  let closing: Promise<void> | undefined;
  const client = () => {
    if (closing) throw new Error('cache closed');
    return redis;
  };
  const store: RawStore = {
    get: async (fullKey) => await client().get(fullKey),
    async set(fullKey, json, ttlMs) {
      await client().set(fullKey, json, 'PX', ttlMs);
    },
    async delete(fullKey) {
      await client().del(fullKey);
    },
  };
  const counters = new CacheCounters(warn);
  const context = { prefix, store, counters, loads: createSingleFlight() };
  const views = tenantViews(context);

  return {
    forTenant: views.forTenant,
    bounded: () => ({ tenant_views: views.stats() }),
    async ping(timeoutMs) {
      const started = performance.now();
      const redisClient = client();
      // Without the offline queue ioredis would say "Stream isn't writeable…"; say what it means.
      if (redisClient.status !== 'ready') throw new Error(`redis not connected (${redisClient.status})`);
      await withTimeout(redisClient.ping(), timeoutMs);
      return Math.round(performance.now() - started);
    },
    connected: () => !closing && redis.status === 'ready',
    async details() {
      return parseRedisInfo(await client().info());
    },
    stats: () => counters.snapshot(),
    close() {
      closing ??= (async () => {
        try {
          if (redis.status === 'ready') await withTimeout(redis.quit(), 1000);
        } catch {
          // fall through to disconnect
        } finally {
          redis.disconnect();
        }
      })();
      return closing;
    },
  };
}
