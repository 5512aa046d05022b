import { describe, expect, it } from 'vitest';
import { seatCandidates, type Span } from '../src/seating/assignment.js';
import { planReseat, type BlockingBooking, type OwnedSpan } from '../src/seating/reseat-plan.js';
import type { SeatingTable } from '../src/seating/seating-sources.js';

const h = (hours: number) => hours * 3_600_000;
const day: Span = { start: 0, end: h(24) };
const window: Span = { start: h(20), end: h(22) };

/** Room R: A (2 seats), B (4), C (4); room S: D (2). */
const tables: SeatingTable[] = [
  { id: 'A', seats: 2, salaId: 'R' },
  { id: 'B', seats: 4, salaId: 'R' },
  { id: 'C', seats: 4, salaId: 'R' },
  { id: 'D', seats: 2, salaId: 'S' },
];

function search(holds: Record<string, OwnedSpan[]>, bookings: Record<string, BlockingBooking>) {
  return {
    targets: seatCandidates(tables, [], 4),
    covers: 4,
    ownerId: 'NEW',
    window,
    day,
    places: (covers: number, salaId: string | null) =>
      seatCandidates(
        tables.filter((t) => t.salaId === salaId),
        [],
        covers,
      ),
    holdsOf: (t: string) => holds[t] ?? [],
    bookingOf: (id: string) => bookings[id],
    salaOf: (t: string) => tables.find((x) => x.id === t)?.salaId,
  };
}
const booking = (id: string, tableIds: string[], covers = 2, movable = true): BlockingBooking => ({
  id,
  covers,
  window,
  tableIds,
  movable,
});
const hold = (ownerId: string, span: Span = window): OwnedSpan => ({ ownerId, ...span });

describe('re-seating plan', () => {
  it('moves a blocking auto-assigned party to another free fitting table of its room', () => {
    const plan = planReseat(
      search(
        { B: [hold('x')], C: [hold('y')] },
        { x: booking('x', ['B']), y: booking('y', ['C'], 4, false) },
      ),
    );
    expect(plan).toEqual({
      target: expect.objectContaining({ id: 'B' }),
      moves: [{ bookingId: 'x', from: ['B'], to: expect.objectContaining({ id: 'A' }) }],
    });
  });

  it('never moves a booking that is not movable (manual, or within the freeze)', () => {
    const plan = planReseat(
      search(
        { B: [hold('x')], C: [hold('y')] },
        { x: booking('x', ['B'], 2, false), y: booking('y', ['C'], 2, false) },
      ),
    );
    expect(plan).toBeNull();
  });

  it('never moves to another room, nor onto a held table', () => {
    // A is held by an option (not a booking): x fits nowhere else in room R; D is in room S
    expect(
      planReseat(search({ A: [hold('opt')], B: [hold('x')], C: [hold('y')] }, { x: booking('x', ['B']) })),
    ).toBeNull();
  });

  it('two moved parties never get the same table (moves planned so far count)', () => {
    const both = { x: booking('x', ['B']), z: booking('z', ['B']) };
    const holds = {
      B: [hold('x', { start: h(19), end: h(21) }), hold('z', { start: h(21), end: h(23) })],
      C: [hold('y')],
    };
    both.x.window = { start: h(19), end: h(21) };
    both.z.window = { start: h(21), end: h(23) };
    // x and z can both use A, one after the other (their windows only touch)
    expect(planReseat(search(holds, both))?.moves.map((m) => [m.bookingId, m.to.id])).toEqual([
      ['x', 'A'],
      ['z', 'A'],
    ]);
    both.z.window = { start: h(20), end: h(23) };
    holds.B[1] = hold('z', both.z.window);
    expect(planReseat(search(holds, both))).toBeNull();
  });

  it('respects its bounds: too many blocking bookings on a place', () => {
    const holds = {
      B: [
        hold('a', { start: h(20), end: h(20.5) }),
        hold('b', { start: h(20.5), end: h(21) }),
        hold('c', { start: h(21), end: h(21.5) }),
        hold('d', { start: h(21.5), end: h(22) }),
      ],
      C: [hold('y')],
    };
    const bookings = Object.fromEntries(
      ['a', 'b', 'c', 'd'].map((id) => [
        id,
        { ...booking(id, ['B']), window: holds.B.find((x) => x.ownerId === id)! },
      ]),
    );
    expect(planReseat(search(holds, bookings))).toBeNull();
    expect(
      planReseat({ ...search(holds, bookings), limits: { candidates: 5, blocking: 4 } })?.moves,
    ).toHaveLength(4);
  });

  it('bounds the places it searches, not the places it looks at: unfreeable ones do not use up the bound', () => {
    // Eight 2-tops T1..T8 for a couple; T1..T6 each held by a manual booking, T7 by a movable party that can
    // go to the free 2-top F. Only one candidate may be searched: it must be T7, not T1.
    const twoTops: SeatingTable[] = [
      ...Array.from({ length: 8 }, (_, i) => ({ id: `T${i + 1}`, seats: 2, salaId: 'R' })),
      { id: 'F', seats: 2, salaId: 'R' },
    ];
    const holds: Record<string, OwnedSpan[]> = Object.fromEntries(
      twoTops.slice(0, 8).map((t) => [t.id, [hold(`b${t.id}`)]]),
    );
    const movable = new Set(['bT7']);
    const plan = planReseat({
      targets: seatCandidates(twoTops, [], 2),
      covers: 2,
      ownerId: 'NEW',
      window,
      day,
      places: (covers, salaId) =>
        seatCandidates(
          twoTops.filter((t) => t.salaId === salaId),
          [],
          covers,
        ),
      holdsOf: (t) => holds[t] ?? [],
      bookingOf: (id) => booking(id, [id.slice(1)], 2, movable.has(id)),
      salaOf: (t) => twoTops.find((x) => x.id === t)?.salaId,
      limits: { candidates: 1, blocking: 3 },
    });
    expect(plan?.target.id).toBe('T7');
    expect(plan?.moves).toEqual([
      { bookingId: 'bT7', from: ['T7'], to: expect.objectContaining({ id: 'F' }) },
    ]);
  });

  it('among places of the same rank, tries the one with fewer bookings to move first', () => {
    // B is blocked by two movable couples, C by one: C is the plan (one move, to A)
    const early = { start: h(19), end: h(20.5) };
    const late = { start: h(21), end: h(23) };
    const plan = planReseat(
      search(
        { B: [hold('p', early), hold('q', late)], C: [hold('r')] },
        {
          p: { ...booking('p', ['B']), window: early },
          q: { ...booking('q', ['B']), window: late },
          r: booking('r', ['C']),
        },
      ),
    );
    expect(plan?.target.id).toBe('C');
    expect(plan?.moves.map((m) => [m.bookingId, m.to.id])).toEqual([['r', 'A']]);
  });

  it('never moves a party to a worse fit (more seats than its own place)', () => {
    // x (a couple) holds the 2-top A; the only free place is the 4-top C: moving x there would free A for the
    // new couple but take a table a later four needs, so there is no plan
    const couple = { ...search({ A: [hold('x')], B: [hold('y')] }, { x: booking('x', ['A']) }), covers: 2 };
    couple.targets = seatCandidates(tables, [], 2).filter((t) => t.id !== 'C');
    expect(planReseat(couple)).toBeNull();
    // the same couple on the 4-top B may move to the free 4-top C (as good a fit)
    const onFour = { ...search({ B: [hold('x')], A: [hold('y')] }, { x: booking('x', ['B']) }), covers: 2 };
    onFour.targets = seatCandidates(tables, [], 2).filter((t) => t.id !== 'C');
    expect(planReseat(onFour)?.moves).toEqual([
      { bookingId: 'x', from: ['B'], to: expect.objectContaining({ id: 'C' }) },
    ]);
  });
});

describe('re-seating plan: chains of moves', () => {
  /** Room R: A and E (2 seats), B (4). */
  const room: SeatingTable[] = [
    { id: 'A', seats: 2, salaId: 'R' },
    { id: 'E', seats: 2, salaId: 'R' },
    { id: 'B', seats: 4, salaId: 'R' },
  ];
  const zSpan = { start: h(19), end: h(20.5) };
  const wSpan = { start: h(20.75), end: h(22.75) };
  // x (a couple) holds B for the new four's window; x fits A only once z (19:00–20:30) moves on to E, which
  // the manual w holds from 20:45 (so x cannot take E itself)
  const holds: Record<string, OwnedSpan[]> = {
    A: [hold('z', zSpan)],
    E: [hold('w', wSpan)],
    B: [hold('x')],
  };
  const bookings: Record<string, BlockingBooking> = {
    x: booking('x', ['B']),
    z: { ...booking('z', ['A']), window: zSpan },
    w: { ...booking('w', ['E'], 2, false), window: wSpan },
  };
  const chainSearch = (limits?: Parameters<typeof planReseat>[0]['limits']) => ({
    targets: seatCandidates(room, [], 4),
    covers: 4,
    ownerId: 'NEW',
    window,
    day,
    places: (covers: number, salaId: string | null) =>
      seatCandidates(
        room.filter((t) => t.salaId === salaId),
        [],
        covers,
      ),
    holdsOf: (t: string) => holds[t] ?? [],
    bookingOf: (id: string) => bookings[id],
    salaOf: (t: string) => room.find((x) => x.id === t)?.salaId,
    ...(limits ? { limits } : {}),
  });

  it('moves the party on the destination first, then the blocking one (the order the moves are written)', () => {
    expect(planReseat(chainSearch())).toEqual({
      target: expect.objectContaining({ id: 'B' }),
      moves: [
        { bookingId: 'z', from: ['A'], to: expect.objectContaining({ id: 'E' }) },
        { bookingId: 'x', from: ['B'], to: expect.objectContaining({ id: 'A' }), after: ['z'] },
      ],
    });
  });

  it('no chains at depth 1; none when the budget of places is spent', () => {
    expect(planReseat(chainSearch({ depth: 1 }))).toBeNull();
    expect(planReseat(chainSearch({ steps: 1 }))).toBeNull();
  });

  it('never moves a booking twice, nor one that is not movable, in a chain', () => {
    bookings.z = { ...bookings.z!, movable: false };
    try {
      expect(planReseat(chainSearch())).toBeNull();
    } finally {
      bookings.z = { ...bookings.z, movable: true };
    }
  });

  it('prefers the shallowest plan: a free place for the blocking party is taken before any chain', () => {
    const wider: SeatingTable[] = [...room, { id: 'F', seats: 2, salaId: 'R' }];
    const plan = planReseat({
      ...chainSearch(),
      targets: seatCandidates(wider, [], 4),
      places: (covers, salaId) =>
        seatCandidates(
          wider.filter((t) => t.salaId === salaId),
          [],
          covers,
        ),
      salaOf: (t) => wider.find((x) => x.id === t)?.salaId,
    });
    expect(plan?.moves).toEqual([{ bookingId: 'x', from: ['B'], to: expect.objectContaining({ id: 'F' }) }]);
  });
});
