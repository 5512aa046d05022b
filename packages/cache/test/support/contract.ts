/**
 * The contract every `Cache` adapter passes (`@coperto/cache/contract`). Usage in an adapter's test file:
 *
 *   describeCache('memory', () => createMemoryCache());
 *
 * `open` must return a fresh, connected cache whose keys no other test file touches (use a unique keyPrefix).
 */
import { randomBytes } from 'node:crypto';
import { trustedTenantId, type TenantId } from '@coperto/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/types.js';

const tenant = (label: string) => trustedTenantId(`${label}-${randomBytes(4).toString('hex')}`);

/** Polls `read` until it returns `null`, for at most `deadlineMs`. */
async function eventuallyNull(read: () => Promise<unknown>, deadlineMs = 5000): Promise<unknown> {
  const deadline = Date.now() + deadlineMs;
  let value = await read();
  while (value !== null && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    value = await read();
  }
  return value;
}

export function describeCache(name: string, open: () => Cache | Promise<Cache>): void {
  describe(`Cache contract: ${name}`, () => {
    let cache: Cache;
    beforeAll(async () => {
      cache = await open();
    });
    afterAll(async () => {
      await cache?.close();
    });

    it('returns null for a key never set', async () => {
      expect(await cache.forTenant(tenant('t')).get('missing')).toBeNull();
    });

    it('round-trips JSON values', async () => {
      const t = cache.forTenant(tenant('t'));
      const values: Record<string, unknown> = {
        object: { nome: 'Tavolo 1', capacita: 4, attivo: true, tags: ['finestra', 'è'], nested: { a: null } },
        array: [1, 'due', { tre: 3 }],
        string: 'caffè ☕',
        number: 12.5,
        zero: 0,
        boolean: false,
        empty: '',
      };
      for (const [key, value] of Object.entries(values)) await t.set(key, value, 60);
      for (const [key, value] of Object.entries(values)) expect(await t.get(key)).toEqual(value);
    });

    it('stores a copy: changing the object after set or after get does not change the entry', async () => {
      const t = cache.forTenant(tenant('t'));
      const value = { list: [1, 2] };
      await t.set('k', value, 60);
      value.list.push(3);
      const read = await t.get<{ list: number[] }>('k');
      expect(read).toEqual({ list: [1, 2] });
      read?.list.push(4);
      expect(await t.get('k')).toEqual({ list: [1, 2] });
    });

    it('stores JSON text as is and gives it back unparsed; get and getJsonText read either kind of entry', async () => {
      const t = cache.forTenant(tenant('t'));
      const text = '{"tavoli":[{"nome":"Tavolo 1","capacita":4}],"nota":"caffè ☕"}';
      await t.setJsonText('text', text, 60);
      expect(await t.getJsonText('text')).toBe(text);
      expect(await t.get('text')).toEqual(JSON.parse(text));
      await t.set('value', { a: [1, 2] }, 60);
      expect(await t.getJsonText('value')).toBe('{"a":[1,2]}');
      expect(await t.getJsonText('missing')).toBeNull();
      await t.setJsonText('broken', '{not json', 60);
      expect(await t.get('broken')).toBeNull();
      await expect(t.setJsonText('empty', '', 60)).rejects.toThrow(TypeError);
      await expect(t.setJsonText('ttl', '1', 0)).rejects.toThrow();
      expect(await cache.forTenant(tenant('other')).getJsonText('text')).toBeNull();
    });

    it('stores a Date as its ISO string, as JSON does', async () => {
      const t = cache.forTenant(tenant('t'));
      const at = new Date('2025-03-30T01:30:00.000Z');
      await t.set('at', { at }, 60);
      expect(await t.get('at')).toEqual({ at: '2025-03-30T01:30:00.000Z' });
    });

    it('overwrites an existing key', async () => {
      const t = cache.forTenant(tenant('t'));
      await t.set('k', 'first', 60);
      await t.set('k', 'second', 60);
      expect(await t.get('k')).toBe('second');
    });

    it('deletes a key; deleting a missing key resolves', async () => {
      const t = cache.forTenant(tenant('t'));
      await t.set('k', 1, 60);
      await t.delete('k');
      expect(await t.get('k')).toBeNull();
      await expect(t.delete('never-set')).resolves.toBeUndefined();
    });

    it('keeps tenants apart: same key, different values; a delete touches one tenant only', async () => {
      const a = cache.forTenant(tenant('a'));
      const b = cache.forTenant(tenant('b'));
      await a.set('tavoli', ['a1'], 60);
      expect(await b.get('tavoli')).toBeNull();
      await b.set('tavoli', ['b1'], 60);
      expect(await a.get('tavoli')).toEqual(['a1']);
      await a.delete('tavoli');
      expect(await a.get('tavoli')).toBeNull();
      expect(await b.get('tavoli')).toEqual(['b1']);
    });

    it("builds each tenant's view once: the same tenant gets the same view, another tenant its own", () => {
      const id = tenant('a');
      const a = cache.forTenant(id);
      expect(cache.forTenant(id)).toBe(a);
      expect(cache.forTenant(tenant('b'))).not.toBe(a);
    });

    it('keeps tenants apart even when ids and keys contain the separator', async () => {
      const base = tenant('x');
      const outer = cache.forTenant(trustedTenantId(`${base}:y`));
      const inner = cache.forTenant(base);
      await outer.set('z', 'outer', 60);
      expect(await inner.get('y:z')).toBeNull();
      await inner.set('y:z', 'inner', 60);
      expect(await outer.get('z')).toBe('outer');
      expect(await inner.get('y:z')).toBe('inner');
    });

    it('expires an entry after its TTL', async () => {
      const t = cache.forTenant(tenant('t'));
      await t.set('short', 'v', 0.2);
      await t.set('long', 'v', 60);
      expect(await eventuallyNull(() => t.get('short'))).toBeNull();
      expect(await t.get('long')).toBe('v');
    });

    it('a new set restarts the TTL', async () => {
      const t = cache.forTenant(tenant('t'));
      await t.set('k', 'short', 0.2);
      await t.set('k', 'long', 60);
      await new Promise((r) => setTimeout(r, 400));
      expect(await t.get('k')).toBe('long');
    });

    it('rejects programming errors: empty key, TTL not positive, values JSON cannot hold, empty tenant', async () => {
      const t = cache.forTenant(tenant('t'));
      await expect(t.get('')).rejects.toThrow(TypeError);
      await expect(t.set('k', 1, 0)).rejects.toThrow(TypeError);
      await expect(t.set('k', 1, -1)).rejects.toThrow(TypeError);
      await expect(t.set('k', 1, Number.NaN)).rejects.toThrow(TypeError);
      await expect(t.set('k', undefined, 60)).rejects.toThrow(TypeError);
      await expect(t.set('k', () => 1, 60)).rejects.toThrow(TypeError);
      await expect(t.delete('')).rejects.toThrow(TypeError);
      expect(() => cache.forTenant('' as TenantId)).toThrow(TypeError);
      expect(await t.get('k')).toBeNull();
    });

    it('getOrSet loads on a miss, serves the cached value afterwards', async () => {
      const t = cache.forTenant(tenant('t'));
      let loads = 0;
      const load = async () => {
        loads += 1;
        return { loaded: loads };
      };
      expect(await t.getOrSet('k', 60, load)).toEqual({ loaded: 1 });
      expect(await t.getOrSet('k', 60, load)).toEqual({ loaded: 1 });
      expect(loads).toBe(1);
      expect(await t.get('k')).toEqual({ loaded: 1 });
    });

    it('getOrSet shares one load between concurrent callers', async () => {
      const t = cache.forTenant(tenant('t'));
      let loads = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const load = async () => {
        loads += 1;
        await gate;
        return 'value';
      };
      const callers = Promise.all([
        t.getOrSet('k', 60, load),
        t.getOrSet('k', 60, load),
        t.getOrSet('k', 60, load),
      ]);
      const deadline = Date.now() + 5000;
      while (loads === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      release();
      expect(await callers).toEqual(['value', 'value', 'value']);
      expect(loads).toBe(1);
    });

    it('getOrSet propagates a failing load and caches nothing; null results are not cached', async () => {
      const t = cache.forTenant(tenant('t'));
      await expect(
        t.getOrSet('k', 60, async () => {
          throw new Error('load failed');
        }),
      ).rejects.toThrow('load failed');
      expect(await t.get('k')).toBeNull();
      expect(await t.getOrSet('n', 60, async () => null)).toBeNull();
      expect(await t.getOrSet('n', 60, async () => 'later')).toBe('later');
    });

    it('answers ping, reports connected, and gives details', async () => {
      expect(cache.connected()).toBe(true);
      expect(typeof (await cache.ping(1000))).toBe('number');
      const details = await cache.details();
      expect(details.memoryUsed).toMatch(/^\d+(\.\d+)?[BKMGTP]$/);
      expect(details.connectedClients).toBeGreaterThanOrEqual(1);
    });

    it('counts hits and misses', async () => {
      const t = cache.forTenant(tenant('t'));
      const before = cache.stats();
      await t.set('k', 1, 60);
      await t.get('k');
      await t.get('absent');
      const after = cache.stats();
      expect(after.hits - before.hits).toBe(1);
      expect(after.misses - before.misses).toBe(1);
    });

    it('after close: not connected, ping rejects, reads miss and writes resolve (fails open)', async () => {
      const own = await open();
      const t = own.forTenant(tenant('t'));
      await t.set('k', 1, 60);
      await own.close();
      await own.close();
      expect(own.connected()).toBe(false);
      await expect(own.ping(500)).rejects.toThrow();
      expect(await t.get('k')).toBeNull();
      await expect(t.set('k', 2, 60)).resolves.toBeUndefined();
      await expect(t.delete('k')).resolves.toBeUndefined();
      expect(own.stats().errors).toBeGreaterThanOrEqual(3);
    });
  });
}
