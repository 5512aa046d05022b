import { describe, expect, it } from 'vitest';
import type { ServiceTokenIssuer } from '@coperto/auth';
import { GoogleTokens } from '../src/google/google-tokens.js';

/** An issuer that counts what it mints (signing is not what is under test here). */
function countingIssuer(now: () => number) {
  const minted = { count: 0 };
  const issue = async () => ({ token: `tok${++minted.count}`, expiresAt: new Date(now() + 3600_000) });
  const issuer = {
    channelKey: issue,
    googleToken: issue,
    guestToken: issue,
  } as unknown as ServiceTokenIssuer;
  return { issuer, minted };
}

describe("Google's minted tokens against their bound", () => {
  it('reuses a token while it lasts, keeps at most 10,000 (oldest first) and reports it (bounded_state)', async () => {
    let now = 0;
    const { issuer, minted } = countingIssuer(() => now);
    const tokens = new GoogleTokens(issuer, () => now);
    expect(await tokens.server('t0')).toBe(await tokens.server('t0'));
    for (let i = 1; i <= 10_001; i++) await tokens.server(`t${i}`);
    expect(tokens.stats()).toEqual({
      entries: 10_000,
      capacity: 10_000,
      evictions: 2,
      hits: 1,
      misses: 10_002,
    });
    await tokens.server('t0'); // the oldest went first: minted again
    expect(minted.count).toBe(10_003);
    now = 3600_000; // past its renewal point: minted again, in its own place
    await tokens.server('t10001');
    expect(tokens.stats()).toMatchObject({ entries: 10_000, evictions: 3 });
  });
});
