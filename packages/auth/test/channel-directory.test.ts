import { describe, expect, it } from 'vitest';
import { cachedChannelDirectory, trustedTenantId } from '../src/index.js';

const t1 = trustedTenantId('t1');
const t2 = trustedTenantId('t2');

function counting(active: (tenant: string, id: string) => boolean) {
  const calls: string[] = [];
  return {
    calls,
    lookup: {
      async isActive(tenant: string, id: string) {
        calls.push(`${tenant}/${id}`);
        return active(tenant, id);
      },
    },
  };
}

describe('cachedChannelDirectory', () => {
  it('reuses "active" for activeForMs, then asks again and sees the deletion', async () => {
    let now = 0;
    let exists = true;
    const { calls, lookup } = counting(() => exists);
    const directory = cachedChannelDirectory(lookup, { activeForMs: 2000, now: () => now });
    expect(await directory.isActive(t1, 'c1', 'k')).toBe(true);
    exists = false;
    now = 1999;
    expect(await directory.isActive(t1, 'c1', 'k')).toBe(true);
    now = 2000;
    expect(await directory.isActive(t1, 'c1', 'k')).toBe(false);
    expect(calls).toEqual(['t1/c1', 't1/c1']);
  });

  it('remembers a deleted channel for good', async () => {
    let now = 0;
    const { calls, lookup } = counting(() => false);
    const directory = cachedChannelDirectory(lookup, { now: () => now });
    expect(await directory.isActive(t1, 'c1', 'k')).toBe(false);
    now = 1e9;
    expect(await directory.isActive(t1, 'c1', 'k')).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it('keeps tenants apart, shares concurrent lookups, and keeps no failure', async () => {
    let fail = true;
    const { calls, lookup } = counting((tenant) => {
      if (fail) throw new Error('down');
      return tenant === 't1';
    });
    const directory = cachedChannelDirectory(lookup);
    await expect(directory.isActive(t1, 'c1', 'k')).rejects.toThrow('down');
    fail = false;
    const answers = await Promise.all([directory.isActive(t1, 'c1', 'k'), directory.isActive(t1, 'c1', 'k')]);
    expect(answers).toEqual([true, true]);
    expect(await directory.isActive(t2, 'c1', 'k')).toBe(false);
    expect(calls).toEqual(['t1/c1', 't1/c1', 't2/c1']);
  });

  it('forgets the least recently used channel past maxEntries', async () => {
    const { calls, lookup } = counting(() => false);
    const directory = cachedChannelDirectory(lookup, { maxEntries: 1 });
    await directory.isActive(t1, 'a', 'k');
    await directory.isActive(t1, 'b', 'k');
    await directory.isActive(t1, 'a', 'k');
    expect(calls).toEqual(['t1/a', 't1/b', 't1/a']);
  });

  it('reports its channels against the bound past it, with its hits, misses and evictions', async () => {
    const { lookup } = counting(() => true);
    const directory = cachedChannelDirectory(lookup, { maxEntries: 2, now: () => 0 });
    for (const id of ['a', 'b', 'c', 'd']) await directory.isActive(t1, id, 'k');
    await directory.isActive(t1, 'd', 'k');
    expect(directory.stats()).toEqual({ entries: 2, capacity: 2, evictions: 2, hits: 1, misses: 4 });
  });
});
