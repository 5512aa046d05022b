import { describe, expect, it } from 'vitest';
import {
  DEFAULT_QUOTE_SETTINGS,
  earliestStart,
  quoteQueue,
  tableFreeAt,
  type QuoteCombination,
  type QuoteHold,
  type QuoteInput,
  type QuoteTable,
} from '../src/waitlist/waitlist-quote.js';

const NOW = Date.parse('2027-03-05T19:30:00Z');
const MIN = 60_000;
const at = (minutesFromNow: number) => new Date(NOW + minutesFromNow * MIN).toISOString();

const table = (id: string, seats: number, extra: Partial<QuoteTable> = {}): QuoteTable => ({
  id,
  seats,
  active: true,
  status: 'free',
  statusSince: at(-10),
  pax: null,
  ...extra,
});
const hold = (tableId: string, from: number, to: number): QuoteHold => ({
  tableId,
  startsAt: at(from),
  endsAt: at(to),
});

/** 90-minute turns for everyone unless a test says otherwise. */
function quote(input: Partial<QuoteInput> & Pick<QuoteInput, 'tables' | 'queue'>) {
  return quoteQueue({ now: NOW, combinations: [], holds: [], turnMinutes: () => 90, ...input });
}
const party = (id: string, covers: number) => ({ id, covers });

describe('quoteQueue: one party', () => {
  it('is 0 minutes at a free fitting table, which it suggests', () => {
    const q = quote({ tables: [table('T1', 4)], queue: [party('p', 2)] }).get('p');
    expect(q).toEqual({ minutes: 0, startsAt: NOW, tableIds: ['T1'], combinationId: null });
  });

  it('ignores tables that are too small or inactive', () => {
    const q = quote({
      tables: [table('small', 2), table('off', 6, { active: false }), table('T6', 6, { status: 'dirty' })],
      queue: [party('p', 4)],
    }).get('p');
    expect(q?.tableIds).toEqual(['T6']);
    expect(q?.minutes).toBe(DEFAULT_QUOTE_SETTINGS.dirtyMinutes);
  });

  it('is null when no table or combination holds the party', () => {
    const q = quote({ tables: [table('T1', 4)], queue: [party('p', 9)] }).get('p');
    expect(q).toEqual({ minutes: null, startsAt: null, tableIds: [], combinationId: null });
  });

  it('a table free now but booked at 20:30 cannot take a 90-minute party at 19:30: it waits for the booking to end', () => {
    // Booking 20:30–22:30 (60..180 minutes from now) on the only table.
    const q = quote({ tables: [table('T1', 4)], holds: [hold('T1', 60, 180)], queue: [party('p', 2)] });
    expect(q.get('p')?.minutes).toBe(180);
  });

  it('a short turn fits before the booking', () => {
    const q = quote({
      tables: [table('T1', 4)],
      holds: [hold('T1', 60, 180)],
      queue: [party('p', 2)],
      turnMinutes: () => 60,
    });
    expect(q.get('p')?.minutes).toBe(0); // touching ends do not overlap
  });

  it('an occupied table frees at the end of the booking on it now', () => {
    const q = quote({
      tables: [table('T1', 4, { status: 'occupied', statusSince: at(-80) })],
      holds: [hold('T1', -60, 25)],
      queue: [party('p', 2)],
    });
    expect(q.get('p')?.minutes).toBe(25);
  });

  it('an occupied walk-in table (no booking) frees a turn time after it was seated, for its pax', () => {
    const turnMinutes = (covers: number) => (covers <= 2 ? 60 : 120);
    const tables = [table('T1', 6, { status: 'open', statusSince: at(-40), pax: 2 })];
    expect(quote({ tables, queue: [party('p', 2)], turnMinutes }).get('p')?.minutes).toBe(20);
    // Without pax, the table's seats stand for the party.
    const noPax = [table('T1', 6, { status: 'open', statusSince: at(-40) })];
    expect(quote({ tables: noPax, queue: [party('p', 2)], turnMinutes }).get('p')?.minutes).toBe(80);
  });

  it('an occupied table without a status time frees after the configured default', () => {
    const tables = [table('T1', 4, { status: 'occupied', statusSince: null })];
    expect(quote({ tables, queue: [party('p', 2)] }).get('p')?.minutes).toBe(
      DEFAULT_QUOTE_SETTINGS.unknownOccupancyMinutes,
    );
    const settings = { unknownOccupancyMinutes: 45 };
    expect(quote({ tables, queue: [party('p', 2)], settings }).get('p')?.minutes).toBe(45);
  });

  it('an overdue table is expected to free a few minutes from now', () => {
    const tables = [table('T1', 4, { status: 'occupied', statusSince: at(-200) })];
    expect(quote({ tables, queue: [party('p', 2)] }).get('p')?.minutes).toBe(
      DEFAULT_QUOTE_SETTINGS.overdueMinutes,
    );
  });

  it('a table paying its bill frees within paymentPendingMinutes', () => {
    const tables = [table('T1', 4, { status: 'payment_pending', statusSince: at(-5) })];
    expect(quote({ tables, queue: [party('p', 2)] }).get('p')?.minutes).toBe(
      DEFAULT_QUOTE_SETTINGS.paymentPendingMinutes,
    );
  });

  it('a reserved table is free unless its agenda says otherwise', () => {
    const tables = [table('T1', 4, { status: 'reserved' })];
    expect(quote({ tables, queue: [party('p', 2)] }).get('p')?.minutes).toBe(0);
    expect(quote({ tables, holds: [hold('T1', 15, 135)], queue: [party('p', 2)] }).get('p')?.minutes).toBe(
      135,
    );
  });

  it('a booked party that has not arrived keeps its table lateHoldMinutes after its start, then the queue may have it', () => {
    // booking 19:20–20:50 (started 10 minutes ago), nobody at the table: free for the queue at 19:35
    const late = quote({ tables: [table('T1', 4)], holds: [hold('T1', -10, 80)], queue: [party('p', 2)] });
    expect(late.get('p')?.minutes).toBe(DEFAULT_QUOTE_SETTINGS.lateHoldMinutes - 10);
    // the same on a table marked reserved for it; past the threshold (started 20 minutes ago): free now
    const reserved = table('T1', 4, { status: 'reserved' });
    expect(
      quote({ tables: [reserved], holds: [hold('T1', -10, 80)], queue: [party('p', 2)] }).get('p')?.minutes,
    ).toBe(5);
    expect(
      quote({ tables: [table('T1', 4)], holds: [hold('T1', -20, 70)], queue: [party('p', 2)] }).get('p')
        ?.minutes,
    ).toBe(0);
    // the party is seated (table occupied): its booking holds the table to its end
    const seated = table('T1', 4, { status: 'occupied', statusSince: at(-10), pax: 2 });
    expect(
      quote({ tables: [seated], holds: [hold('T1', -10, 80)], queue: [party('p', 2)] }).get('p')?.minutes,
    ).toBe(80);
    // a booking that has not started yet holds its whole window (its party is not late)
    expect(
      quote({ tables: [table('T1', 4)], holds: [hold('T1', 5, 95)], queue: [party('p', 2)] }).get('p')
        ?.minutes,
    ).toBe(95);
  });

  it('takes the earliest of several tables, ties to the fewest empty seats, then the id', () => {
    const tables = [
      table('B8', 8),
      table('A4', 4),
      table('C4', 4),
      table('D2', 2, { status: 'occupied', statusSince: at(-30) }),
    ];
    expect(quote({ tables, queue: [party('p', 2)] }).get('p')?.tableIds).toEqual(['A4']);
  });
});

describe('quoteQueue: combinations', () => {
  const combination = (id: string, tableIds: string[], maxCovers: number, extra = {}): QuoteCombination => ({
    id,
    tableIds,
    minCovers: 1,
    maxCovers,
    active: true,
    ...extra,
  });

  it('seats a party no single table holds on a combination when all its tables are free for the turn', () => {
    const tables = [table('A', 4), table('B', 4, { status: 'occupied', statusSince: at(-60) })];
    const q = quote({ tables, combinations: [combination('AB', ['A', 'B'], 7)], queue: [party('p', 6)] });
    expect(q.get('p')).toMatchObject({ minutes: 30, tableIds: ['A', 'B'], combinationId: 'AB' });
  });

  it('prefers a single table to a combination free at the same time', () => {
    const tables = [table('A', 4), table('B', 4), table('C', 8)];
    const q = quote({ tables, combinations: [combination('AB', ['A', 'B'], 8)], queue: [party('p', 6)] });
    expect(q.get('p')?.tableIds).toEqual(['C']);
  });

  it('ignores inactive combinations, those whose range does not hold the party, or with an inactive table', () => {
    const tables = [table('A', 4), table('B', 4), table('C', 4, { active: false })];
    const combinations = [
      combination('off', ['A', 'B'], 8, { active: false }),
      combination('min', ['A', 'B'], 8, { minCovers: 7 }),
      combination('withC', ['A', 'C'], 8),
    ];
    expect(quote({ tables, combinations, queue: [party('p', 6)] }).get('p')?.minutes).toBeNull();
  });

  it('a combination waits for its tables’ agendas', () => {
    const tables = [table('A', 4), table('B', 4)];
    const q = quote({
      tables,
      combinations: [combination('AB', ['A', 'B'], 8)],
      holds: [hold('B', 30, 150)],
      queue: [party('p', 6)],
    });
    expect(q.get('p')?.minutes).toBe(150);
  });
});

describe('quoteQueue: the parties ahead', () => {
  it('each party ahead that fits the same table takes the earliest slot first', () => {
    const q = quote({ tables: [table('T1', 4)], queue: [party('a', 2), party('b', 2), party('c', 3)] });
    expect(q.get('a')?.minutes).toBe(0);
    expect(q.get('b')?.minutes).toBe(90);
    expect(q.get('c')?.minutes).toBe(180);
  });

  it('a party ahead that does not fit the table leaves it to the one behind', () => {
    const tables = [table('two', 2), table('six', 6, { status: 'occupied', statusSince: at(-60) })];
    const q = quote({ tables, queue: [party('big', 6), party('small', 2)] });
    expect(q.get('big')).toMatchObject({ minutes: 30, tableIds: ['six'] });
    expect(q.get('small')).toMatchObject({ minutes: 0, tableIds: ['two'] });
  });

  it('the parties ahead are placed around the bookings', () => {
    // T1 is booked 20:30–22:30: a 90-minute party now cannot fit before it; the second one waits for the first.
    const tables = [table('T1', 4), table('T2', 4, { status: 'occupied', statusSince: at(-30) })];
    const q = quote({ tables, holds: [hold('T1', 60, 180)], queue: [party('a', 4), party('b', 4)] });
    expect(q.get('a')).toMatchObject({ minutes: 60, tableIds: ['T2'] }); // T2 frees at 90 - 30
    expect(q.get('b')).toMatchObject({ minutes: 150, tableIds: ['T2'] }); // after a, before T1's 180
  });

  it('every party of the queue gets a quote, in order, with its own turn time', () => {
    const turnMinutes = (covers: number) => (covers <= 2 ? 45 : 120);
    const q = quote({ tables: [table('T1', 4)], queue: [party('a', 2), party('b', 4)], turnMinutes });
    expect([...q.keys()]).toEqual(['a', 'b']);
    expect(q.get('b')?.minutes).toBe(45);
  });
});

describe('tableFreeAt and earliestStart', () => {
  const base = { now: NOW, holds: [] as QuoteHold[], turnMinutes: () => 90 };

  it('free now, dirty soon, occupied by the latest current booking', () => {
    expect(tableFreeAt(table('T', 4), base)).toBe(NOW);
    expect(tableFreeAt(table('T', 4, { status: 'dirty' }), base)).toBe(NOW + 5 * MIN);
    const holds = [hold('T', -90, 10), hold('T', -30, 40), hold('other', -10, 300), hold('T', 60, 90)];
    expect(tableFreeAt(table('T', 4, { status: 'occupied' }), { ...base, holds })).toBe(NOW + 40 * MIN);
  });

  it('earliestStart finds the first gap long enough, touching ends allowed', () => {
    const busy = [
      { start: 10, end: 20 },
      { start: 25, end: 40 },
      { start: 50, end: 60 },
    ];
    expect(earliestStart(busy, 0, 10)).toBe(0);
    expect(earliestStart(busy, 0, 11)).toBe(60);
    expect(earliestStart(busy, 12, 5)).toBe(20);
    expect(earliestStart(busy, 12, 10)).toBe(40);
    expect(earliestStart([], 7, 1000)).toBe(7);
  });
});

describe("quote tie-break: tavolo's list order before the id", () => {
  it('suggests the first listed of equal tables, whatever their ids', () => {
    const q = quote({ tables: [table('T9', 2), table('T1', 2)], queue: [party('p', 2)] }).get('p');
    expect(q?.tableIds).toEqual(['T9']);
  });
});

describe('quote tie-break: the free time around the slot (the assignment rule)', () => {
  it('suggests, among equal tables free now, the one whose next booking comes soonest after the turn', () => {
    // T1 is free all evening; T2 is booked in 100 minutes (a 90-minute party fits before it); T3 in 200
    const q = quote({
      tables: [table('T1', 2), table('T2', 2), table('T3', 2)],
      holds: [hold('T2', 100, 190), hold('T3', 200, 290)],
      queue: [party('p', 2)],
    }).get('p');
    expect(q).toMatchObject({ minutes: 0, tableIds: ['T2'] });
  });

  it('still puts an earlier start and fewer empty seats first', () => {
    const q = quote({
      tables: [table('T4', 4), table('T2', 2)],
      holds: [hold('T4', 100, 190)],
      queue: [party('p', 2)],
    }).get('p');
    expect(q?.tableIds).toEqual(['T2']);
  });
});
