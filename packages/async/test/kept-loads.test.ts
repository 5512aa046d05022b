import { deferred } from '@coperto/testkit';
import { describe, expect, it } from 'vitest';
import { createKeptLoads } from '../src/index.js';

describe('createKeptLoads', () => {
  it('shares one load between concurrent callers and reuses its value for the TTL counted from the answer', async () => {
    let loads = 0;
    let now = 0;
    const gate = deferred<number>();
    const kept = createKeptLoads<number>({ ttlMs: 500, maxKeys: 10, now: () => now });
    const load = () => {
      loads += 1;
      return loads === 1 ? gate.promise : Promise.resolve(loads);
    };
    const callers = [kept.get('t1', load), kept.get('t1', load), kept.get('t1', load)];
    now = 100;
    gate.resolve(1);
    expect(await Promise.all(callers)).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
    now = 600;
    expect(await kept.get('t1', load)).toBe(1);
    now = 601;
    expect(await kept.get('t1', load)).toBe(2);
  });

  it('keeps each key apart, and at most maxKeys of them (the least recently used goes)', async () => {
    const kept = createKeptLoads<string>({ ttlMs: 10_000, maxKeys: 2 });
    expect(await kept.get('a', async () => 'a1')).toBe('a1');
    expect(await kept.get('b', async () => 'b1')).toBe('b1');
    expect(await kept.get('a', async () => 'a2')).toBe('a1');
    expect(await kept.get('c', async () => 'c1')).toBe('c1');
    expect(kept.size).toBe(2);
    expect(await kept.get('b', async () => 'b2')).toBe('b2');
    expect(await kept.get('a', async () => 'a3')).toBe('a3');
    // Loaded a, b, c, b, a (two reads of a kept value), dropped b, a, c for the bound.
    expect(kept.stats()).toEqual({ entries: 2, capacity: 2, evictions: 3, hits: 1, misses: 5 });
  });

  it('does not keep a failed load, nor a synchronous throw', async () => {
    const kept = createKeptLoads<number>({ ttlMs: 10_000, maxKeys: 10 });
    await expect(kept.get('t', async () => Promise.reject(new Error('first fails')))).rejects.toThrow(
      'first fails',
    );
    await expect(
      kept.get('t', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(await kept.get('t', async () => 3)).toBe(3);
  });

  it('delete forgets the value and the running load: its callers get its answer, which is not kept', async () => {
    const kept = createKeptLoads<number>({ ttlMs: 10_000, maxKeys: 10 });
    expect(await kept.get('t', async () => 1)).toBe(1);
    kept.delete('t');
    const gate = deferred<number>();
    const running = kept.get('t', () => gate.promise);
    kept.delete('t');
    expect(await kept.get('t', async () => 3)).toBe(3);
    gate.resolve(2);
    expect(await running).toBe(2);
    expect(await kept.get('t', async () => 4)).toBe(3);
  });

  it('clear forgets every value and running load, as delete does one', async () => {
    const kept = createKeptLoads<number>({ ttlMs: 10_000, maxKeys: 10 });
    expect(await kept.get('a', async () => 1)).toBe(1);
    const gate = deferred<number>();
    const running = kept.get('b', () => gate.promise);
    kept.clear();
    expect(kept.size).toBe(0);
    expect(await kept.get('a', async () => 3)).toBe(3);
    expect(await kept.get('b', async () => 4)).toBe(4);
    gate.resolve(2);
    expect(await running).toBe(2);
    expect(await kept.get('b', async () => 5)).toBe(4);
  });

  it('with a TTL of 0 only callers of a running load share it', async () => {
    const kept = createKeptLoads<number>({ ttlMs: 0, maxKeys: 10 });
    const gate = deferred<number>();
    const callers = [kept.get('t', () => gate.promise), kept.get('t', async () => 9)];
    gate.resolve(1);
    expect(await Promise.all(callers)).toEqual([1, 1]);
    expect(await kept.get('t', async () => 2)).toBe(2);
  });
});
