import { trustedTenantId } from '@coperto/auth';
import { describe, expect, it } from 'vitest';
import { describeCache } from './support/contract.js';
import { createMemoryCache } from '../src/index.js';
import { humanBytes } from '../src/human-bytes.js';
import { tenantKey } from '../src/keys.js';

describeCache('memory', () => createMemoryCache({ onError: () => undefined }));

const tenant = trustedTenantId('trattoria');

describe('memory cache', () => {
  it('honours the TTL to the millisecond with an injected clock (lazy expiry on read)', async () => {
    let now = 1_000_000;
    const cache = createMemoryCache({ now: () => now });
    const t = cache.forTenant(tenant);
    await t.set('k', 'v', 2);
    now += 1999;
    expect(await t.get('k')).toBe('v');
    now += 1;
    expect(await t.get('k')).toBeNull();
    await cache.close();
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = createMemoryCache({ maxEntries: 2 });
    const t = cache.forTenant(tenant);
    await t.set('a', 1, 60);
    await t.set('b', 2, 60);
    await t.get('a');
    await t.set('c', 3, 60);
    expect(await t.get('a')).toBe(1);
    expect(await t.get('b')).toBeNull();
    expect(await t.get('c')).toBe(3);
    expect((await cache.details()).keys).toBe(2);
    expect(cache.bounded().entries).toEqual({ entries: 2, capacity: 2, evictions: 1 });
    await cache.close();
  });

  it('sweeps expired entries nobody reads again', async () => {
    let now = 0;
    const cache = createMemoryCache({ now: () => now });
    const t = cache.forTenant(tenant);
    for (let i = 0; i < 500; i++) await t.set(`old-${i}`, i, 1);
    now += 5000;
    for (let i = 0; i < 500; i++) await t.set(`new-${i}`, i, 60);
    expect((await cache.details()).keys).toBe(500);
    await cache.close();
  });

  it('builds keys as <prefix>:<tenantId>:<key>, encoding only the tenant separator', () => {
    expect(tenantKey('coperto', tenant, 'tavoli:list')).toBe('coperto:trattoria:tavoli:list');
    expect(tenantKey('coperto', trustedTenantId('a:b'), 'c')).toBe('coperto:a%3Ab:c');
  });

  it('rejects a prefix with the separator', () => {
    expect(() => createMemoryCache({ keyPrefix: 'a:b' })).toThrow(TypeError);
    expect(() => createMemoryCache({ keyPrefix: '' })).toThrow(TypeError);
  });

  it('formats sizes like Redis used_memory_human', () => {
    expect(humanBytes(0)).toBe('0B');
    expect(humanBytes(1023)).toBe('1023B');
    expect(humanBytes(1536)).toBe('1.50K');
    expect(humanBytes(5 * 1024 * 1024)).toBe('5.00M');
  });

  it('a throwing error handler never breaks a request', async () => {
    const cache = createMemoryCache({
      onError: () => {
        throw new Error('logger down');
      },
    });
    const t = cache.forTenant(tenant);
    await cache.close();
    expect(await t.get('k')).toBeNull();
    expect(cache.stats().errors).toBe(1);
  });
});
