import { trustedTenantId } from '@coperto/auth';
import { describe, expect, it } from 'vitest';
import { CacheCounters } from '../src/fail-open.js';
import { createSingleFlight } from '@coperto/async';
import { tenantViews, type RawStore } from '../src/tenant-view.js';

describe('tenantViews', () => {
  const entries = new Map<string, string>();
  const store: RawStore = {
    get: async (key) => entries.get(key) ?? null,
    set: async (key, json) => void entries.set(key, json),
    delete: async (key) => void entries.delete(key),
  };
  const context = {
    prefix: 'p',
    store,
    counters: new CacheCounters(() => undefined),
    loads: createSingleFlight(),
  };

  it('keeps at most the bound: the oldest view is built again, and still reads what its tenant wrote', async () => {
    const views = tenantViews(context, 2);
    const a = views.forTenant(trustedTenantId('a'));
    await a.set('k', 'of a', 60);
    views.forTenant(trustedTenantId('b'));
    views.forTenant(trustedTenantId('c'));
    const again = views.forTenant(trustedTenantId('a'));
    expect(again).not.toBe(a);
    expect(await again.get('k')).toBe('of a');
    expect(views.forTenant(trustedTenantId('a'))).toBe(again);
    expect([...entries.keys()]).toEqual(['p:a:k']);
    // a, b, c, a again (a was evicted by c), a kept: four built, two evicted, one reuse.
    expect(views.stats()).toEqual({ entries: 2, capacity: 2, evictions: 2, hits: 1, misses: 4 });
  });

  it('refuses an empty tenant id every time, keeping nothing for it', () => {
    const views = tenantViews(context);
    expect(() => views.forTenant(trustedTenantId(''))).toThrow(TypeError);
    expect(() => views.forTenant(trustedTenantId(''))).toThrow(TypeError);
  });
});
