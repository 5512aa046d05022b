import { describe, expect, it } from 'vitest';
import { AuthOptionsError, createTokenVerifier, trustedTenantId, type Viewer } from '../src/index.js';
import { createVerifiedTokenCache } from '../src/verified-token-cache.js';
import { SECRET, expectUnauthenticated, hsToken, validClaims } from './helpers.js';

const viewer = (tenant: string): Viewer =>
  Object.freeze({
    tenantId: trustedTenantId(tenant),
    subject: null,
    roles: [],
    isAdmin: false,
    token: tenant,
  });

describe('createVerifiedTokenCache', () => {
  it('serves an entry until the token expires', () => {
    const cache = createVerifiedTokenCache({ maxAgeSeconds: 600 });
    const v = viewer('t1');
    cache.set('tok', v, 10_000, 0);
    expect(cache.get('tok', 9_999)).toBe(v);
    expect(cache.get('tok', 10_000)).toBeUndefined();
    expect(cache.get('tok', 5_000)).toBeUndefined(); // dropped once seen expired
  });

  it('serves an entry at most maxAgeSeconds after it was verified', () => {
    const cache = createVerifiedTokenCache({ maxAgeSeconds: 60 });
    cache.set('tok', viewer('t1'), 3_600_000, 1_000);
    expect(cache.get('tok', 60_999)).toBeDefined();
    expect(cache.get('tok', 61_000)).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = createVerifiedTokenCache({ maxEntries: 2 });
    cache.set('a', viewer('a'), 1e9, 0);
    cache.set('b', viewer('b'), 1e9, 0);
    expect(cache.get('a', 1)).toBeDefined(); // a is now the most recent
    cache.set('c', viewer('c'), 1e9, 0);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)?.tenantId).toBe('a');
    expect(cache.get('c', 1)?.tenantId).toBe('c');
  });

  it('reports its entries against the bound past it, with its hits, misses and evictions', () => {
    const cache = createVerifiedTokenCache({ maxEntries: 3, maxAgeSeconds: 10 });
    for (let i = 0; i < 5; i++) cache.set(`t${i}`, viewer(`t${i}`), 1e9, 0);
    expect(cache.get('t4', 1)).toBeDefined();
    expect(cache.get('t0', 1)).toBeUndefined();
    expect(cache.get('t3', 20_000)).toBeUndefined(); // past maxAgeSeconds: dropped
    expect(cache.stats()).toEqual({ entries: 2, capacity: 3, evictions: 3, hits: 1, misses: 2 });
  });

  it('stores nothing with maxEntries 0, or for a token already expired', () => {
    const off = createVerifiedTokenCache({ maxEntries: 0 });
    off.set('a', viewer('a'), 1e9, 0);
    expect(off.get('a', 1)).toBeUndefined();
    const on = createVerifiedTokenCache();
    on.set('b', viewer('b'), 100, 100);
    expect(on.get('b', 50)).toBeUndefined();
  });
});

describe('createTokenVerifier with its verified-token cache', () => {
  const at = (seconds: number) => ({ now: () => seconds * 1000 });

  it('answers a repeated token from the cache (the same Viewer) and verifies every time when turned off', async () => {
    const token = await hsToken(validClaims());
    const cached = createTokenVerifier({ kind: 'secret', secret: SECRET });
    expect(await cached.verify(token)).toBe(await cached.verify(token));
    const uncached = createTokenVerifier({ kind: 'secret', secret: SECRET, verifiedTokenCache: false });
    const [first, second] = [await uncached.verify(token), await uncached.verify(token)];
    expect(first).toEqual(second);
    expect(first).not.toBe(second);
  });

  it('refuses a cached token once it has expired (exp plus the clock tolerance)', async () => {
    const exp = 2_000_000_000;
    const token = await hsToken(validClaims({ exp }));
    let clock = exp - 30; // within the default 60 s maxAge of the first verification
    const verifier = createTokenVerifier({ kind: 'secret', secret: SECRET }, { now: () => clock * 1000 });
    const accepted = await verifier.verify(token);
    clock = exp + 4; // within the 5 s tolerance: still the cached Viewer
    expect(await verifier.verify(token)).toBe(accepted);
    clock = exp + 5;
    const error = await expectUnauthenticated(verifier.verify(token));
    expect(error.message).toBe('Token expired');
  });

  it('verifies a token again after maxAgeSeconds', async () => {
    const token = await hsToken(validClaims({ exp: 2_000_000_000 }));
    let clock = 1_900_000_000;
    const verifier = createTokenVerifier(
      { kind: 'secret', secret: SECRET, verifiedTokenCache: { maxAgeSeconds: 30 } },
      { now: () => clock * 1000 },
    );
    const first = await verifier.verify(token);
    clock += 29;
    expect(await verifier.verify(token)).toBe(first);
    clock += 1;
    const again = await verifier.verify(token);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });

  it('never caches a refusal, nor lets a tampered copy of a cached token through', async () => {
    const verifier = createTokenVerifier({ kind: 'secret', secret: SECRET });
    const token = await hsToken(validClaims());
    await verifier.verify(token);
    const [header, payload, signature] = token.split('.');
    const tampered = `${header}.${payload}.${signature!.slice(0, -2)}AA`;
    for (let i = 0; i < 2; i++) await expectUnauthenticated(verifier.verify(tampered));
    const otherTenant = Buffer.from(JSON.stringify(validClaims({ tenantId: 't2' }))).toString('base64url');
    await expectUnauthenticated(verifier.verify(`${header}.${otherTenant}.${signature}`));
  });

  it('checks its options', () => {
    for (const bad of [{ maxEntries: -1 }, { maxEntries: 1.5 }, { maxAgeSeconds: -1 }]) {
      expect(() =>
        createTokenVerifier({ kind: 'secret', secret: SECRET, verifiedTokenCache: bad }, at(0)),
      ).toThrow(AuthOptionsError);
    }
  });
});
