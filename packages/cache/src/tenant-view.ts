import type { TenantId } from '@coperto/auth';
import type { CacheCounters } from './fail-open.js';
import { assertKey, assertTenantId, boundedKey, tenantKey, ttlMilliseconds } from './keys.js';
import type { BoundedStats, SingleFlight } from '@coperto/async';
import type { TenantCache } from './types.js';
import { decodeValue, encodeValue } from './values.js';

/**
 * What an adapter provides: raw string operations on full keys. They may reject when the server is
 * unreachable; the tenant view turns that into a miss or a no-op (fail open).
 */
export interface RawStore {
  get(fullKey: string): Promise<string | null>;
  set(fullKey: string, json: string, ttlMs: number): Promise<void>;
  delete(fullKey: string): Promise<void>;
}

export interface TenantViewContext {
  prefix: string;
  store: RawStore;
  counters: CacheCounters;
  /** In-flight `getOrSet` loads by full key, shared by every view of the cache. */
  loads: SingleFlight;
}

/** Tenants whose views one cache keeps built (the least recently built go first beyond it). */
const KEPT_TENANT_VIEWS = 1000;

/**
 * `forTenant` of an adapter: each tenant's view is built once and kept (at most `maxViews`), so a request does
 * not build a dozen closures and encode the tenant's key segment again (the REST facade asks for one per cached
 * read). A view holds nothing but its tenant and the shared context, so a kept one is never stale.
 */
export function tenantViews(
  context: TenantViewContext,
  maxViews = KEPT_TENANT_VIEWS,
): { forTenant: (tenantId: TenantId) => TenantCache; stats: () => BoundedStats } {
  const views = new Map<TenantId, TenantCache>();
  let evictions = 0;
  let hits = 0;
  let built = 0;
  return {
    forTenant(tenantId) {
      const kept = views.get(tenantId);
      if (kept !== undefined) {
        hits += 1;
        return kept;
      }
      const view = tenantView(context, tenantId);
      built += 1;
      views.set(tenantId, view);
      if (views.size > maxViews) {
        views.delete(views.keys().next().value!);
        evictions += 1;
      }
      return view;
    },
    stats: () => ({ entries: views.size, capacity: maxViews, evictions, hits, misses: built }),
  };
}

/** The `TenantCache` of one tenant over an adapter's raw store. Validation errors reject; server errors fail open. */
function tenantView(context: TenantViewContext, tenantId: TenantId): TenantCache {
  assertTenantId(tenantId);
  const { prefix, store, counters, loads } = context;
  // `<prefix>:<tenant>:` once per view (tenantKey's encoding of the tenant segment).
  const tenantPrefix = tenantKey(prefix, tenantId, '');
  const fullKey = (key: string) => {
    assertKey(key);
    return tenantPrefix + boundedKey(key);
  };

  /** The stored text, or `undefined` when the server failed (counted; the caller answers a miss). */
  const read = async (key: string): Promise<string | null | undefined> => {
    const k = fullKey(key);
    try {
      return await store.get(k);
    } catch (error) {
      counters.failed(error, 'get');
      return undefined;
    }
  };

  const get = async <T>(key: string): Promise<T | null> => {
    const json = await read(key);
    if (json === undefined) return null;
    const decoded = json === null ? undefined : decodeValue(json);
    if (decoded === undefined) {
      counters.miss();
      return null;
    }
    counters.hit();
    return decoded.value as T;
  };

  const getJsonText = async (key: string): Promise<string | null> => {
    const json = await read(key);
    if (json === undefined) return null;
    if (json === null) counters.miss();
    else counters.hit();
    return json;
  };

  const setJsonText = async (key: string, json: string, ttlSeconds: number): Promise<void> => {
    const k = fullKey(key);
    const ttlMs = ttlMilliseconds(ttlSeconds);
    if (typeof json !== 'string' || json.length === 0)
      throw new TypeError('JSON text must be a non-empty string');
    await write(k, json, ttlMs);
  };

  const set = async (key: string, value: unknown, ttlSeconds: number): Promise<void> => {
    const k = fullKey(key);
    const ttlMs = ttlMilliseconds(ttlSeconds);
    await write(k, encodeValue(value), ttlMs);
  };

  const write = async (k: string, json: string, ttlMs: number): Promise<void> => {
    try {
      await store.set(k, json, ttlMs);
    } catch (error) {
      counters.failed(error, 'set');
    }
  };

  const del = async (key: string): Promise<void> => {
    const k = fullKey(key);
    try {
      await store.delete(k);
    } catch (error) {
      counters.failed(error, 'delete');
    }
  };

  const getOrSet = async <T>(key: string, ttlSeconds: number, load: () => Promise<T>): Promise<T> => {
    const k = fullKey(key);
    ttlMilliseconds(ttlSeconds);
    const cached = await get<T>(key);
    if (cached !== null) return cached;
    return loads.run(k, async () => {
      const value = await load();
      if (value !== null && value !== undefined) await set(key, value, ttlSeconds);
      return value;
    });
  };

  return { get, set, getJsonText, setJsonText, delete: del, getOrSet };
}
