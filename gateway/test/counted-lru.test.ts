import { describe, expect, it } from 'vitest';
import { createCountedLru } from '../src/host/counted-lru.js';

describe('createCountedLru: a bounded memory counted for bounded_state', () => {
  it('drops the least recently used past its capacity, counting only what the bound dropped', () => {
    const lru = createCountedLru<{ v: number }>(2);
    lru.set('a', { v: 1 });
    lru.set('b', { v: 2 });
    expect(lru.get('a')).toEqual({ v: 1 }); // a is now the most recently used
    lru.set('c', { v: 3 });
    expect(lru.get('b')).toBeUndefined();
    lru.set('a', { v: 4 }); // a replacement is no eviction
    expect(lru.get('a')).toEqual({ v: 4 });
    expect(lru.stats()).toEqual({ entries: 2, capacity: 2, evictions: 1, hits: 2, misses: 1 });
  });

  it('counts a value its caller cannot use as a miss, and keeps it until replaced', () => {
    const lru = createCountedLru<{ expiresAt: number }>(10);
    lru.set('token', { expiresAt: 100 });
    expect(lru.get('token', (t) => t.expiresAt > 200)).toBeUndefined();
    expect(lru.get('token', (t) => t.expiresAt > 50)).toEqual({ expiresAt: 100 });
    expect(lru.stats()).toMatchObject({ entries: 1, hits: 1, misses: 1, evictions: 0 });
  });
});
