// The floor plan's pure option helpers (gateway/public/floor-plan/options.js, a browser module without DOM use
// at import): which option holds each table and the time left as mm:ss. The page's use of them is in
// test/floor-plan-seating.browser.e2e.test.ts.
import { describe, expect, it } from 'vitest';

interface Option {
  id: string;
  tableIds: string[];
  expiresAt: string;
}
const { heldLeft, heldTables } = (await import('../public/floor-plan/options.js' as string)) as {
  heldLeft(expiresAt: string, now: number): string | null;
  heldTables(options: Option[], now: number): Map<string, Option>;
};

const NOW = Date.parse('2030-06-14T18:00:00.000Z');
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();

describe('floor plan options', () => {
  it('gives the time left as mm:ss, rounded up to the second, and null once it passed', () => {
    expect(heldLeft(at(300), NOW)).toBe('05:00');
    expect(heldLeft(at(59.2), NOW)).toBe('01:00');
    expect(heldLeft(at(9), NOW)).toBe('00:09');
    expect(heldLeft(at(900), NOW)).toBe('15:00');
    expect(heldLeft(at(0), NOW)).toBeNull();
    expect(heldLeft(at(-5), NOW)).toBeNull();
    expect(heldLeft('not a date', NOW)).toBeNull();
  });

  it('maps each held table to the live option that expires first, leaving out expired ones', () => {
    const later = { id: 'later', tableIds: ['t1', 't2'], expiresAt: at(600) };
    const sooner = { id: 'sooner', tableIds: ['t2'], expiresAt: at(120) };
    const expired = { id: 'expired', tableIds: ['t3'], expiresAt: at(-1) };
    const held = heldTables([later, sooner, expired], NOW);
    expect([...held.keys()].sort()).toEqual(['t1', 't2']);
    expect(held.get('t1')!.id).toBe('later');
    expect(held.get('t2')!.id).toBe('sooner');
    expect(heldTables([later, sooner], NOW + 601_000).size).toBe(0);
  });
});
