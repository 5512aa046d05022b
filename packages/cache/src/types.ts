import type { TenantId } from '@coperto/auth';
import type { BoundedStats } from '@coperto/async';

/** A JSON value as the cache stores it (what `JSON.stringify` accepts and `JSON.parse` gives back). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * The keys of one tenant. Every key is stored as `<prefix>:<tenantId>:<key>`, so two tenants never see each
 * other's entries. Values are JSON: what comes back is a fresh copy (a `Date` comes back as its ISO string).
 *
 * The cache fails open: when the backing server is down, `get` resolves to `null` (a miss) and `set` and
 * `delete` resolve without doing anything. Only programming errors (empty key, TTL not positive, a value that is
 * not JSON) reject.
 */
export interface TenantCache {
  /** The value, or `null` when the key is missing, expired, or the cache is unreachable. */
  get<T = unknown>(key: string): Promise<T | null>;
  /** Stores `value` (JSON) for `ttlSeconds` (> 0; fractions allowed, rounded up to whole milliseconds). */
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  /**
   * The entry's JSON text as stored, without parsing it (for answers that go out as JSON unchanged), or `null`
   * as for `get`. Reads entries written by `set` and by `setJsonText` alike.
   */
  getJsonText(key: string): Promise<string | null>;
  /**
   * Stores text that is already JSON (e.g. from `JSON.stringify`) as is, for `ttlSeconds`; `get` parses it.
   * The text is not parsed here: text that is not JSON reads back as a miss through `get`.
   */
  setJsonText(key: string, json: string, ttlSeconds: number): Promise<void>;
  /** Removes the key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Returns the cached value, or runs `load`, stores its result for `ttlSeconds` and returns it. Concurrent
   * calls for the same key in this process share one `load`. A `load` that throws rejects and caches nothing;
   * a `null`/`undefined` result is returned but not cached (a stored `null` would read as a miss anyway).
   */
  getOrSet<T>(key: string, ttlSeconds: number, load: () => Promise<T>): Promise<T>;
}

/** What the health server's `checks.cache` shows (Redis `INFO`, or in-process figures for the memory twin). */
export interface CacheDetails {
  /** Human-readable, Redis style (`used_memory_human`), e.g. `1.02M`. */
  memoryUsed: string;
  connectedClients: number;
  [key: string]: unknown;
}

/** Counters since the cache was opened. `errors` counts operations that failed open. */
export interface CacheStats {
  hits: number;
  misses: number;
  errors: number;
}

/** A tenant-partitioned key/value cache. Two adapters pass one contract suite (`test/support/contract.ts`). */
export interface Cache {
  /** The keys of one tenant. Cheap: call it per request. */
  forTenant(tenantId: TenantId): TenantCache;
  /** Round trip to the server in milliseconds; rejects when it does not answer within `timeoutMs`. */
  ping(timeoutMs: number): Promise<number>;
  /** True while the connection is up (always true for the memory adapter until `close`). */
  connected(): boolean;
  /** Memory used and connected clients; rejects when the server is unreachable. */
  details(): Promise<CacheDetails>;
  stats(): CacheStats;
  /**
   * What the cache holds in this process, with its bound: `tenant_views` (the built views, per tenant) and, for
   * the memory adapter, `entries` (the stored keys, all tenants; hits and misses are `stats()`'s).
   */
  bounded(): Readonly<Record<string, BoundedStats>>;
  /** Closes the connection. Afterwards the cache behaves like an unreachable one (fails open). Idempotent. */
  close(): Promise<void>;
}

/** Called for every operation that failed open (default: a throttled `console.warn`). */
export type CacheErrorHandler = (error: Error, operation: 'get' | 'set' | 'delete') => void;
