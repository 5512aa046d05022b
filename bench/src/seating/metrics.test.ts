import { describe, expect, it } from 'vitest';
import {
  activeHold,
  checkReadBack,
  findDoubleBookings,
  occupiedOrHeld,
  percentile,
  seatedFigures,
  waitlistFigures,
  type ReadBackBooking,
} from './metrics.js';

const at = (hhmm: string) => `2031-01-10T${hhmm}:00.000Z`;
let n = 0;
function booking(partial: Partial<ReadBackBooking> & { tableIds: string[]; from: string; to: string }) {
  const { from, to, ...rest } = partial;
  return {
    id: `b${++n}`,
    covers: 2,
    state: 'confermata',
    startsAt: at(from),
    endsAt: at(to),
    updatedAt: at('09:00'),
    ...rest,
  };
}

describe('double bookings', () => {
  it('finds two active bookings overlapping on a shared table, not touching ones or other tables', () => {
    const a = booking({ tableIds: ['t1', 't2'], from: '18:00', to: '20:00' });
    const b = booking({ tableIds: ['t2'], from: '19:30', to: '21:00' });
    const c = booking({ tableIds: ['t1'], from: '20:00', to: '21:00' }); // touches a: fine
    const d = booking({ tableIds: ['t3'], from: '18:00', to: '23:00' });
    expect(findDoubleBookings([a, b, c, d], activeHold)).toEqual([
      { tableId: 't2', first: a.id, second: b.id },
    ]);
  });

  it('ignores cancelled bookings and no-shows, and a completed booking only up to when it was completed', () => {
    const left = booking({
      tableIds: ['t1'],
      from: '18:00',
      to: '20:00',
      state: 'completata',
      updatedAt: at('19:30'),
    });
    const walkIn = booking({ tableIds: ['t1'], from: '19:30', to: '21:00' });
    const cancelled = booking({ tableIds: ['t1'], from: '19:00', to: '21:00', state: 'annullata' });
    const noShow = booking({ tableIds: ['t1'], from: '19:00', to: '21:00', state: 'no_show' });
    expect(findDoubleBookings([left, walkIn, cancelled, noShow], occupiedOrHeld)).toEqual([]);
    const stayedLate = { ...left, updatedAt: at('19:45') };
    expect(findDoubleBookings([stayedLate, walkIn], occupiedOrHeld)).toHaveLength(1);
    // With only active holds, completed bookings do not count at all.
    expect(findDoubleBookings([stayedLate, walkIn], activeHold)).toEqual([]);
  });

  it('finds every pair when three bookings overlap', () => {
    const list = ['18:00', '18:30', '19:00'].map((from) => booking({ tableIds: ['t9'], from, to: '20:00' }));
    expect(findDoubleBookings(list, activeHold)).toHaveLength(3);
  });
});

describe('seated figures', () => {
  it('counts completed parties and their seat-minutes inside the window', () => {
    const window = [Date.parse(at('18:00')), Date.parse(at('23:00'))] as const;
    const list = [
      booking({
        tableIds: ['t1'],
        from: '18:00',
        to: '19:30',
        covers: 2,
        state: 'completata',
        updatedAt: at('19:20'),
      }),
      booking({
        tableIds: ['t2'],
        from: '22:00',
        to: '23:45',
        covers: 4,
        state: 'completata',
        updatedAt: at('23:45'),
      }),
      booking({ tableIds: ['t3'], from: '20:00', to: '21:30', covers: 6, state: 'no_show' }),
      booking({ tableIds: ['t4'], from: '20:00', to: '21:30', covers: 3, state: 'annullata' }),
    ];
    expect(seatedFigures(list, ...window)).toEqual({ parties: 2, covers: 6, seatMinutes: 2 * 80 + 4 * 60 });
  });
});

describe('waitlist figures', () => {
  it('takes nearest-rank percentiles', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([5, 1, 3], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 90)).toBe(10);
  });

  it('measures |quoted − actual| over seated parties and counts those who left', () => {
    const figures = waitlistFigures([
      { covers: 2, quotedMinutes: 10, outcome: 'seated', waitedMinutes: 14 },
      { covers: 4, quotedMinutes: 0, outcome: 'seated', waitedMinutes: 0 },
      { covers: 2, quotedMinutes: 30, outcome: 'seated', waitedMinutes: 10 },
      { covers: 3, quotedMinutes: 90, outcome: 'balked', waitedMinutes: null },
      { covers: 2, quotedMinutes: 20, outcome: 'reneged', waitedMinutes: null },
      { covers: 2, quotedMinutes: 20, outcome: 'left-at-close', waitedMinutes: null },
    ]);
    expect(figures).toEqual({
      walkIns: 6,
      seated: 3,
      seatedCovers: 8,
      balked: 1,
      reneged: 1,
      leftAtClose: 1,
      failed: 0,
      errorMedian: 4,
      errorP90: 20,
    });
  });
});

describe('read-back check', () => {
  it('passes complete bookings and refuses one without endsAt', () => {
    const complete = booking({ tableIds: ['t1'], from: '18:00', to: '19:00' });
    expect(checkReadBack([complete])).toEqual([complete]);
    const { endsAt: _dropped, ...withoutEnd } = complete;
    expect(() => checkReadBack([complete, withoutEnd])).toThrow(/booking 1 lacks a field/);
  });
});
