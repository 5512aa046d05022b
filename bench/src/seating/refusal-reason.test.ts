import { describe, expect, it } from 'vitest';
import type { ReadBackBooking } from './metrics.js';
import { refusalReason } from './refusal-reason.js';
import { restaurant } from './restaurant.js';

const spec = restaurant();
const DATE = '2031-01-13';
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`;
const booking = (tableId: string, from: string, to: string, covers = 2): ReadBackBooking => ({
  id: `${tableId}-${from}`,
  covers,
  tableIds: [tableId],
  state: 'confermata',
  startsAt: at(from),
  endsAt: at(to),
  updatedAt: at('09:00'),
});

describe('why a request was refused (diagnostics)', () => {
  // UTC as the zone, so the local minutes are the instants above; 20:00 asked by a couple (90 min)
  const seats = new Map([
    ['two', 2],
    ['four', 4],
    ['six', 6],
  ]);
  const request = { covers: 2, time: 20 * 60 };

  it('tells held tables (and a small party on a big one) from tables cut short, and nearby times that fit', () => {
    const day = [
      booking('two', '19:00', '20:30'),
      booking('four', '19:30', '21:00', 2), // a couple on a 4-top: a 2-top would seat it
      booking('six', '20:45', '22:45', 6), // six free at 20:00, held again after 45 minutes
    ];
    expect(refusalReason(day, seats, spec, DATE, 'UTC', request)).toBe(
      'fitting 3 free 0 busy 2 (smaller party on 1) cut 1 (longest 45 of 90 min) shift-fits [+30]',
    );
  });

  it('ignores cancelled bookings and counts a fitting table free for the whole turn', () => {
    const day = [{ ...booking('two', '19:00', '20:30'), state: 'annullata' }];
    expect(refusalReason(day, seats, spec, DATE, 'UTC', request)).toBe(
      'fitting 3 free 3 busy 0 (smaller party on 0) cut 0 (longest 0 of 90 min) shift-fits [-30 -15 +15 +30]',
    );
  });
});
