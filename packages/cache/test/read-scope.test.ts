import { describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { createMemoryCache } from '../src/memory-cache.js';
import { bumpReadScope, readScopeKey } from '../src/read-scope.js';

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
});
