import { describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { createMemoryCache } from '../src/memory-cache.js';
import { bumpReadScope, readScopeKey, readScopesKey, readScopeVersion } from '../src/read-scope.js';

describe('read scopes', () => {
  it('keys answers by the scope version, which every write replaces, per tenant', async () => {
    const cache = createMemoryCache();
    const a = cache.forTenant(trustedTenantId('a'));
    const b = cache.forTenant(trustedTenantId('b'));
    const before = await readScopeKey(a, 'tavoli', 'list');
    expect(await readScopeKey(a, 'tavoli', 'list')).toBe(before);
    await a.set(before, ['old'], 60);
    const otherBefore = await readScopeKey(b, 'tavoli', 'list');
    await bumpReadScope(a, 'tavoli');
    const after = await readScopeKey(a, 'tavoli', 'list');
    expect(after).not.toBe(before);
    expect(await a.get(after)).toBeNull();
    expect(await readScopeKey(b, 'tavoli', 'list')).toBe(otherBefore);
    expect(await readScopeKey(a, 'sale', 'list')).not.toBe(after);
    await cache.close();
  });

  it('keys an answer of several scopes by all their versions: a write to any of them replaces the key', async () => {
    const cache = createMemoryCache();
    const a = cache.forTenant(trustedTenantId('a'));
    const b = cache.forTenant(trustedTenantId('b'));
    const key = () => readScopesKey(a, ['sale', 'tavoli'], 'doc');
    const first = await key();
    expect(await key()).toBe(first);
    expect(await readScopesKey(a, ['sale', 'tavoli'], 'other')).not.toBe(first);
    await bumpReadScope(a, 'tavoli');
    const second = await key();
    expect(second).not.toBe(first);
    await bumpReadScope(a, 'sale');
    const third = await key();
    expect(new Set([first, second, third]).size).toBe(3);
    await bumpReadScope(b, 'sale');
    expect(await key()).toBe(third);
    await cache.close();
  });

  it('gives a process-held copy the scope version, setting one when there is none, and a new one after a write', async () => {
    const cache = createMemoryCache();
    const a = cache.forTenant(trustedTenantId('a'));
    const first = await readScopeVersion(a, 'tavoli');
    expect(await readScopeVersion(a, 'tavoli')).toBe(first);
    expect(await readScopeVersion(cache.forTenant(trustedTenantId('b')), 'tavoli')).not.toBe(first);
    await bumpReadScope(a, 'tavoli');
    const second = await readScopeVersion(a, 'tavoli');
    expect(second).not.toBe(first);
    // the answers cached under a key share the version the copy is kept by
    expect(await readScopeKey(a, 'tavoli', 'list')).toBe(`scope:tavoli:${second}:list`);
    await cache.close();
  });

  it('never hands out the same version twice while the cache is unreachable', async () => {
    const cache = createMemoryCache();
    const a = cache.forTenant(trustedTenantId('a'));
    await cache.close(); // a closed cache behaves like an unreachable one: every get misses, every set is dropped
    const versions = await Promise.all([1, 2, 3].map(() => readScopeVersion(a, 'tavoli')));
    expect(new Set(versions).size).toBe(3);
  });
});
