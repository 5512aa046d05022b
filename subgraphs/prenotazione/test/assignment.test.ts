import { describe, expect, it } from 'vitest';
import { freeGapMs, rankCandidates, seatCandidates, type Span } from '../src/seating/assignment.js';

const h = (hours: number) => hours * 3_600_000;
const day: Span = { start: 0, end: h(24) };
const window: Span = { start: h(20), end: h(22) };

describe('seat candidates', () => {
  it('keeps tables with enough seats and active combinations whose range holds the party', () => {
    const found = seatCandidates(
      [
        { id: 'T2', seats: 2, salaId: 'R' },
        { id: 'T4', seats: 4, salaId: 'R' },
      ],
      [
        { id: 'C1', tableIds: ['T2', 'T4'], salaId: 'R', minCovers: 3, maxCovers: 6, attivo: true },
        { id: 'C2', tableIds: ['T2', 'T4'], salaId: 'R', minCovers: 5, maxCovers: 6, attivo: true },
        { id: 'C3', tableIds: ['T2', 'T4'], salaId: 'R', minCovers: 1, maxCovers: 6, attivo: false },
      ],
      4,
    );
    expect(found.map((c) => [c.kind, c.id, c.capacity])).toEqual([
      ['table', 'T4', 4],
      ['combination', 'C1', 6],
    ]);
  });
});

describe('free gap around a window', () => {
  it('runs from the previous hold (or the day start) to the next hold (or the day end)', () => {
    expect(freeGapMs([], window, day)).toBe(h(22));
    expect(freeGapMs([{ start: h(18), end: h(19) }], window, day)).toBe(h(1) + h(2));
    expect(
      freeGapMs(
        [
          { start: h(12), end: h(20) },
          { start: h(22), end: h(23) },
        ],
        window,
        day,
      ),
    ).toBe(0);
  });
});

describe('ranking (the assignment rule)', () => {
  const table = (id: string, seats: number) => ({
    kind: 'table' as const,
    id,
    tableIds: [id],
    salaId: 'R',
    capacity: seats,
  });
  const combo = (id: string, tableIds: string[], max: number) => ({
    kind: 'combination' as const,
    id,
    tableIds,
    salaId: 'R',
    capacity: max,
  });
  const rank = (cands: ReturnType<typeof table | typeof combo>[], holds: Record<string, Span[]> = {}) =>
    rankCandidates(cands, 2, window, day, (t) => holds[t] ?? []).map((c) => c.id);

  it('puts single tables before combinations, even with more empty seats', () => {
    expect(rank([combo('C', ['A', 'B'], 2), table('T8', 8)])).toEqual(['T8', 'C']);
  });

  it('then fewest empty seats', () => {
    expect(rank([table('T6', 6), table('T2', 2), table('T4', 4)])).toEqual(['T2', 'T4', 'T6']);
  });

  it('then the shortest free time around the window, then id', () => {
    const holds = { B: [{ start: h(18), end: h(20) }], C: [{ start: h(22), end: h(23) }] };
    // B: free 0 before + 2h after; C: 20h before + 0 after; A and D: the whole day
    expect(rank([table('D', 2), table('A', 2), table('C', 2), table('B', 2)], holds)).toEqual([
      'B',
      'C',
      'A',
      'D',
    ]);
  });

  it("leaves out places with a hold in the window; a combination's gap is its tables' total", () => {
    const holds = { A: [{ start: h(21), end: h(23) }], X: [{ start: h(19), end: h(20) }] };
    expect(
      rank(
        [table('A', 2), combo('C1', ['A', 'B'], 2), combo('C2', ['X', 'Y'], 2), combo('C3', ['Z', 'W'], 2)],
        holds,
      ),
    ).toEqual(['C2', 'C3']);
  });

  it("breaks the last tie by tavolo's list order (by name), not by the generated id", () => {
    // ids are generated (random): equal places are taken in the restaurant's own order, the same on every run
    const tables = [
      { id: 'f3a9', seats: 2, salaId: 'R' }, // listed first: "S01"
      { id: '07bc', seats: 2, salaId: 'R' }, // "S02"
    ];
    const ranked = rankCandidates(seatCandidates(tables, [], 2), 2, window, day, () => []);
    expect(ranked.map((c) => c.id)).toEqual(['f3a9', '07bc']);
  });
});
