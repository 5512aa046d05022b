import { describe, expect, it } from 'vitest';
import type { ReadBackBooking } from './metrics.js';
import { reseatBound, type BoundInput } from './reseat-bound.js';
import type { RestaurantSpec } from './restaurant.js';

// One room: two 2-tops and a 4-top; another room: a 2-top. Table ids are the names in lower case.
const spec: RestaurantSpec = {
  rooms: ['A', 'B'],
  tables: [
    { name: 'A1', seats: 2, room: 'A' },
    { name: 'A2', seats: 2, room: 'A' },
    { name: 'A3', seats: 4, room: 'A' },
    { name: 'B1', seats: 2, room: 'B' },
  ],
  combinations: [{ name: 'A1+A2', tables: ['A1', 'A2'], minCovers: 3, maxCovers: 3 }],
  turnTimes: [{ maxCovers: 12, minutes: 90 }],
  open: 18 * 60,
  close: 23 * 60,
  lastSeating: 21 * 60 + 30,
};
const names = new Map(spec.tables.map((t) => [t.name.toLowerCase(), t.name]));
const H = 3_600_000;
const booking = (
  id: string,
  tableIds: string[],
  startH: number,
  covers = 2,
  state = 'confermata',
): ReadBackBooking => ({
  id,
  covers,
  tableIds,
  state,
  startsAt: new Date(startH * H).toISOString(),
  endsAt: new Date((startH + 1.5) * H).toISOString(),
  updatedAt: new Date(0).toISOString(),
});
const base = (day: ReadBackBooking[], covers: number, startH: number): Omit<BoundInput, 'mode'> => ({
  spec,
  names,
  day,
  request: { covers, start: startH * H, end: (startH + 1.5) * H },
  now: 0,
  freezeMinutes: 60,
});

describe('could any re-seating have seated the party (exhaustive search)', () => {
  it('finds the plan a move makes: a couple on the 4-top moves to a free 2-top, the four sits', () => {
    const day = [booking('c', ['a3'], 20), booking('d', ['a1'], 20)];
    expect(reseatBound({ ...base(day, 4, 20), mode: 'rules' })).toBe('feasible');
  });

  it('tells a party no plan can seat from one a free place seats', () => {
    // a 3 on the combination A1+A2 and a couple on A3: the couple could only go to A1 or A2, which the 3
    // holds, and the 3 only to A3 (or the combination it has). Infeasible.
    const blocked = [booking('t', ['a1', 'a2'], 20, 3), booking('c', ['a3'], 20)];
    expect(reseatBound({ ...base(blocked, 4, 20), mode: 'rules' })).toBe('infeasible');
    // with the 3 on A3 at 19:00 (ending 20:30), a four at 20:30 finds A3 free.
    const chain = [booking('t', ['a3'], 19, 3), booking('c', ['a1'], 20)];
    expect(reseatBound({ ...base(chain, 4, 20.5), mode: 'rules' })).toBe('feasible');
  });

  it('never moves a booking inside the freeze or out of its room under the rules; relaxed does both', () => {
    const day = [booking('c', ['a3'], 0.5), booking('d', ['a1'], 0.5), booking('e', ['a2'], 0.5)];
    // a four at 00:30: A3 holds a couple starting within the freeze, so under the rules nothing seats the four
    expect(reseatBound({ ...base(day, 4, 0.5), mode: 'rules' })).toBe('infeasible');
    // relaxed: the couple may go to B1 (another room)
    expect(reseatBound({ ...base(day, 4, 0.5), mode: 'relaxed' })).toBe('feasible');
  });

  it('ignores bookings no longer active and answers unknown past its node limit', () => {
    const day = [booking('c', ['a3'], 20, 2, 'annullata')];
    expect(reseatBound({ ...base(day, 4, 20), mode: 'rules' })).toBe('feasible');
    const busy = [booking('c', ['a3'], 20), booking('d', ['a1'], 20)];
    expect(reseatBound({ ...base(busy, 4, 20), mode: 'rules', nodeLimit: 1 })).toBe('unknown');
  });
});
