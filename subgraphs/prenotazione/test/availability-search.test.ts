import { describe, expect, it } from 'vitest';
import type { OwnedSpan } from '../src/seating/reseat-plan.js';
import type { PrenotazioneRecord } from '../src/bookings/prenotazione-record.js';
import type { SeatingCombination, SeatingTable } from '../src/seating/seating-sources.js';
import { FreeTime, mergeSpans } from '../src/availability/free-time.js';
import { searchDay, type DaySearch } from '../src/availability/day-search.js';
import { reseatSearchOf } from '../src/seating/reseat-snapshot.js';
import { planReseat } from '../src/seating/reseat-plan.js';
import { seatCandidates } from '../src/seating/assignment.js';

const MIN = 60_000;
/** 2027-02-01 in Europe/Rome (UTC+1): local HH:MM as an instant. */
const at = (clock: string) => Date.parse(`2027-02-01T${clock}:00+01:00`);
const clockOf = (ms: number) => new Date(ms + 60 * MIN).toISOString().slice(11, 16);
/** Slots every 15 minutes from 18:00 to 22:45 with room for 40 covers each. */
const evening = Array.from({ length: 20 }, (_, i) => ({
  startsAt: at('18:00') + i * 15 * MIN,
  coversBookable: 40,
}));

const hold = (ownerId: string, from: string, to: string): OwnedSpan => ({
  ownerId,
  start: at(from),
  end: at(to),
});

function search(overrides: Partial<DaySearch> & { holds?: Record<string, OwnedSpan[]> } = {}): DaySearch {
  const { holds = {}, ...rest } = overrides;
  return {
    slots: evening,
    covers: 2,
    turnMinutes: 120,
    shortenedMinMinutes: null,
    tables: [{ id: 'T2', seats: 2, salaId: 'R' }],
    combinations: [],
    salaId: null,
    holdsOf: (t) => holds[t] ?? [],
    timeZone: 'Europe/Rome',
    notBefore: 0,
    wished: null,
    limit: null,
    reseat: null,
    ...rest,
  };
}
const times = (s: DaySearch) => searchDay(s).map((t) => clockOf(t.startsAt));

describe('free time of a table', () => {
  it('joins overlapping and touching holds and answers how long the table stays free', () => {
    expect(
      mergeSpans([
        { start: 30, end: 40 },
        { start: 10, end: 20 },
        { start: 20, end: 25 },
        { start: 12, end: 15 },
      ]),
    ).toEqual([
      { start: 10, end: 25 },
      { start: 30, end: 40 },
    ]);
    const free = new FreeTime(['A', 'B'], (t) =>
      t === 'A'
        ? [
            { start: 10, end: 20 },
            { start: 30, end: 40 },
          ]
        : [],
    );
    expect(free.runFrom('A', 0)).toBe(10);
    expect(free.runFrom('A', 10)).toBe(0);
    expect(free.runFrom('A', 19)).toBe(0);
    expect(free.runFrom('A', 20)).toBe(10); // touching ends do not overlap
    expect(free.runFrom('A', 40)).toBe(Infinity);
    expect(free.runFrom('B', 5)).toBe(Infinity);
    expect(free.placeRunFrom(['A', 'B'], 25)).toBe(5);
  });
});

describe('the day search', () => {
  it('offers every slot whose window is free, in time order, none overlapping a hold', () => {
    const s = search({ holds: { T2: [hold('b1', '19:00', '21:00')] } });
    // 120 minutes before 19:00 does not fit after 18:00; from 21:00 on it does
    expect(times(s)).toEqual(['21:00', '21:15', '21:30', '21:45', '22:00', '22:15', '22:30', '22:45']);
    expect(searchDay(s).every((t) => t.durationMinutes === 120 && !t.shortened)).toBe(true);
  });

  it('answers the nearest times to the wished one first, ties to the earlier, at most the limit', () => {
    const s = search({ holds: { T2: [hold('b1', '19:00', '21:00')] }, wished: at('20:00'), limit: 3 });
    expect(times(s)).toEqual(['21:00', '21:15', '21:30']);
    const open = search({ wished: at('20:07'), limit: 4 });
    expect(times(open)).toEqual(['20:00', '20:15', '19:45', '20:30']);
    const tie = search({
      wished: at('20:30'),
      limit: 3,
      slots: evening.filter((s) => clockOf(s.startsAt) !== '20:30'),
    });
    expect(times(tie)).toEqual(['20:15', '20:45', '20:00']);
  });

  it('leaves out slots pacing has no room in for the party, and times already past', () => {
    const slots = evening.map((s) => ({ ...s, coversBookable: clockOf(s.startsAt) === '20:00' ? 1 : 40 }));
    expect(times(search({ slots, covers: 2 }))).not.toContain('20:00');
    expect(times(search({ slots, covers: 1 }))).toContain('20:00');
    expect(times(search({ notBefore: at('22:10') }))).toEqual(['22:15', '22:30', '22:45']);
  });

  it('takes the place the autoAssign rule takes: single tables before combinations, fewest empty seats', () => {
    const tables: SeatingTable[] = [
      { id: 'A4', seats: 4, salaId: 'R' },
      { id: 'B2', seats: 2, salaId: 'R' },
      { id: 'C2', seats: 2, salaId: 'R' },
    ];
    const combinations: SeatingCombination[] = [
      { id: 'BC', tableIds: ['B2', 'C2'], salaId: 'R', minCovers: 3, maxCovers: 4, attivo: true },
    ];
    const [two] = searchDay(search({ tables, combinations, covers: 2, limit: 1 }));
    expect(two!.place.tableIds).toEqual(['B2']);
    const holds = { A4: [hold('b1', '18:00', '23:59')] };
    const [four] = searchDay(search({ tables, combinations, covers: 4, limit: 1, holds }));
    expect(four!.place).toMatchObject({ kind: 'combination', id: 'BC', tableIds: ['B2', 'C2'] });
    // a combination with one table held is not free
    const blocked = { ...holds, C2: [hold('b2', '18:00', '20:00')] };
    expect(times(search({ tables, combinations, covers: 4, holds: blocked }))[0]).toBe('20:00');
  });

  it('keeps to the room asked for', () => {
    const tables: SeatingTable[] = [
      { id: 'A2', seats: 2, salaId: 'R' },
      { id: 'B2', seats: 2, salaId: 'S' },
    ];
    const [first] = searchDay(search({ tables, salaId: 'S', limit: 1 }));
    expect(first!.place.tableIds).toEqual(['B2']);
    expect(searchDay(search({ tables, salaId: 'nowhere' }))).toEqual([]);
  });

  it('offers a shortened stay, the longest that fits, where the full turn time does not and it is long enough', () => {
    const holds = { T2: [hold('b1', '20:00', '22:00')] };
    const s = search({
      holds,
      shortenedMinMinutes: 60,
      slots: evening.filter((x) => x.startsAt < at('20:00')),
    });
    expect(searchDay(s).map((t) => [clockOf(t.startsAt), t.durationMinutes, t.shortened])).toEqual([
      ['18:00', 120, false],
      ['18:15', 105, true],
      ['18:30', 90, true],
      ['18:45', 75, true],
      ['19:00', 60, true],
    ]);
    // never: no shortened seatings at all
    expect(times({ ...s, shortenedMinMinutes: null })).toEqual(['18:00']);
  });

  it('offers a shortened stay on the place that allows the longest one', () => {
    const tables: SeatingTable[] = [
      { id: 'A2', seats: 2, salaId: 'R' },
      { id: 'B2', seats: 2, salaId: 'R' },
    ];
    const holds = { A2: [hold('a', '19:00', '23:59')], B2: [hold('b', '19:30', '23:59')] };
    const [first] = searchDay(
      search({ tables, holds, shortenedMinMinutes: 30, limit: 1, wished: at('18:30') }),
    );
    expect(first).toMatchObject({ durationMinutes: 60, shortened: true, place: { tableIds: ['B2'] } });
  });

  it('offers a time a re-seating makes room for, as the booking path would re-seat', () => {
    const tables: SeatingTable[] = [
      { id: 'A2', seats: 2, salaId: 'R' },
      { id: 'B2', seats: 2, salaId: 'R' },
    ];
    // b1 (auto-assigned) sits on A2 19:00-21:00, b2 (manual) on B2 17:00-19:00: at 18:30 a couple fits only if
    // b1 moves to B2, which is free from 19:00.
    const bookings = new Map<string, PrenotazioneRecord>([
      ['b1', booking('b1', 'A2', '19:00', 'auto')],
      ['b2', booking('b2', 'B2', '17:00', 'manual')],
    ]);
    const holds: Record<string, OwnedSpan[]> = {
      A2: [hold('b1', '19:00', '21:00')],
      B2: [hold('b2', '17:00', '19:00')],
    };
    const reseatWith =
      (frozenUntil: number) =>
      (fitting: Parameters<typeof reseatSearchOf>[2], window: { start: number; end: number }) =>
        planReseat(
          reseatSearchOf(
            { tables, combinations: [], holdsOf: (t) => holds[t] ?? [], bookings, frozenUntil },
            { ownerId: 'new', covers: 2, window, day: { start: at('00:00'), end: at('23:59') } },
            fitting,
          ),
        );
    const base = { tables, holds, wished: at('18:30'), limit: 1 };
    expect(times(search(base))).toEqual(['19:00']);
    const [moved] = searchDay(search({ ...base, reseat: reseatWith(0) }));
    expect(moved).toMatchObject({ reseated: true, place: { tableIds: ['A2'] } });
    expect(clockOf(moved!.startsAt)).toBe('18:30');
    // a booking within the freeze is never moved
    expect(times(search({ ...base, reseat: reseatWith(at('21:00')) }))).toEqual(['19:00']);
  });
});

function booking(
  id: string,
  table: string,
  start: string,
  assegnazione: 'auto' | 'manual',
): PrenotazioneRecord {
  return {
    id,
    covers: 2,
    state: 'confermata',
    tableIds: [table],
    assegnazione,
    startsAt: new Date(at(start)).toISOString(),
    effectiveDurationMinutes: 120,
    durationMinutes: null,
  } as PrenotazioneRecord;
}

describe("the search's smaller re-seating budget", () => {
  it('finds a plan only where the booking finds the same plan (the same search, stopped earlier)', () => {
    let found = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const random = mulberry32(seed);
      const tables: SeatingTable[] = Array.from({ length: 6 + Math.floor(random() * 10) }, (_, i) => ({
        id: `T${String(i).padStart(2, '0')}`,
        seats: [2, 2, 4, 4, 6][Math.floor(random() * 5)]!,
        salaId: i % 2 ? 'R' : 'S',
      }));
      const holds: Record<string, OwnedSpan[]> = {};
      const bookings = new Map<string, PrenotazioneRecord>();
      for (let b = 0; b < tables.length * 3; b++) {
        const table = tables[Math.floor(random() * tables.length)]!;
        const start = 17 * 60 + Math.floor(random() * 20) * 15;
        const clock = `${String(Math.floor(start / 60)).padStart(2, '0')}:${String(start % 60).padStart(2, '0')}`;
        const record = booking(`b${b}`, table.id, clock, random() < 0.8 ? 'auto' : 'manual');
        const span = { ownerId: record.id, start: at(clock), end: at(clock) + 120 * MIN };
        if ((holds[table.id] ?? []).some((h) => h.start < span.end && h.end > span.start)) continue;
        (holds[table.id] ??= []).push(span);
        bookings.set(record.id, record);
      }
      const snapshot = {
        tables,
        combinations: [],
        holdsOf: (t: string) => holds[t] ?? [],
        bookings,
        frozenUntil: 0,
      };
      const fitting = seatCandidates(tables, [], 2);
      for (const clock of ['18:00', '19:00', '19:30', '20:00', '21:00']) {
        const window = { start: at(clock), end: at(clock) + 120 * MIN };
        const search = reseatSearchOf(
          snapshot,
          { ownerId: 'new', covers: 2, window, day: { start: at('00:00'), end: at('23:59') } },
          fitting,
        );
        const small = planReseat({ ...search, limits: { steps: 40 } });
        const full = planReseat(search);
        if (small) {
          found++;
          expect(full).toEqual(small);
        }
      }
    }
    expect(found).toBeGreaterThan(0);
  });
});

/** A small seeded generator, so every seed is the same floor on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
