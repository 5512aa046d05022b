import { describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { boundedKey, MAX_KEY_LENGTH } from '../src/keys.js';
import { createMemoryCache } from '../src/memory-cache.js';

describe('long cache keys (regression: a key over 1024 chars threw, and GET /api/tavoli?posizione=<long> was a 500)', () => {
  it('stores and reads a value under a key longer than MAX_KEY_LENGTH', async () => {
    const cache = createMemoryCache();
    const tenant = cache.forTenant(trustedTenantId('t'));
    const key = `ListTavoli:${'a'.repeat(5000)}`;
    await tenant.set(key, { ok: 1 }, 60);
    expect(await tenant.get(key)).toEqual({ ok: 1 });
    await cache.close();
  });

  it('keeps two long keys with the same beginning apart, and short keys unchanged', () => {
    const head = 'x'.repeat(MAX_KEY_LENGTH);
    expect(boundedKey(`${head}1`)).not.toBe(boundedKey(`${head}2`));
    expect(boundedKey(`${head}1`).length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
    expect(boundedKey('short')).toBe('short');
  });
});
