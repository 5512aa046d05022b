import { describe, expect, it } from 'vitest';
import { AvailabilityService } from '../src/availability/availability-service.js';
import { readDays, readPlaces, type AvailabilityDeps } from '../src/availability/day-read.js';
import { searchDay } from '../src/availability/day-search.js';
import type { PrenotazioneRecord } from '../src/bookings/prenotazione-record.js';
import type { SeatingCombination, SeatingConfig, SeatingTable } from '../src/seating/seating-sources.js';
import type { HeldEntry } from '../src/seating/table-claims.js';

/**
 * What `GET /api/disponibilita` reads (availability-service.ts `day`, day-read.ts readDayInSteps): the room's holds
 * first, every other table's holds and the bookings only when a slot needs re-seating; and the answer is the one
 * the whole read gives (readDays, as `disponibilitaPerCoperti` reads), whatever the room, party and day.
 */
const MIN = 60_000;
const DAY = '2027-02-01';
/** 2027-02-01 in Europe/Rome (UTC+1): local HH:MM as an instant. */
const at = (clock: string) => Date.parse(`${DAY}T${clock}:00+01:00`);
const clockOf = (ms: number) => new Date(ms + 60 * MIN).toISOString().slice(11, 16);
/** 18:00–22:45 every 15 minutes. */
const SLOTS = Array.from({ length: 20 }, (_, i) => ({
  startsAt: at('18:00') + i * 15 * MIN,
  coversBookable: 40,
}));

interface Restaurant {
  tables: SeatingTable[];
  combinations: SeatingCombination[];
  config: SeatingConfig;
  /** Bookings holding the tables (auto-assigned ones may be moved by re-seating). */
  bookings: PrenotazioneRecord[];
}

/** The deps of one restaurant, recording the tables listed (tavolo's list), whose holds are read, and bookings reads. */
function depsOf(restaurant: Restaurant) {
  const reads = { listedTables: [] as string[], heldTables: [] as string[], bookings: 0 };
  const ofRoom = <T extends { salaId: string | null }>(places: T[], salaId?: string) =>
    places.filter((p) => salaId === undefined || p.salaId === salaId);
  const held: HeldEntry[] = restaurant.bookings.flatMap((b) =>
    b.tableIds.map((tableId) => ({
      tableId,
      entry: {
        bookingId: b.id,
        rev: 1,
        start: b.startsAt,
        end: new Date(Date.parse(b.startsAt) + b.effectiveDurationMinutes! * MIN).toISOString(),
        at: '2027-01-01T00:00:00.000Z',
      },
    })),
  );
  const deps: AvailabilityDeps = {
    sources: {
      config: async () => restaurant.config,
      activeTables: async (salaId) => {
        const tables = ofRoom(restaurant.tables, salaId);
        reads.listedTables.push(...tables.map((t) => t.id));
        return tables;
      },
      activeCombinations: async (salaId) => ofRoom(restaurant.combinations, salaId),
    },
    slots: async () => SLOTS,
    heldIn: async (tableIds) => {
      reads.heldTables.push(...tableIds);
      return held.filter((h) => tableIds.includes(h.tableId));
    },
    bookings: async (ids) => {
      reads.bookings++;
      return restaurant.bookings.filter((b) => ids.includes(b.id));
    },
    timeZone: 'Europe/Rome',
    now: () => new Date(at('10:00')),
    showPlaces: true,
  };
  return { deps, reads };
}

function booking(
  id: string,
  tableIds: string[],
  clock: string,
  minutes: number,
  auto = true,
): PrenotazioneRecord {
  return {
    id,
    covers: 2,
    tableIds,
    startsAt: new Date(at(clock)).toISOString(),
    effectiveDurationMinutes: minutes,
    state: 'confermata',
    assegnazione: auto ? 'auto' : 'manual',
  } as PrenotazioneRecord;
}

const config = (reseat: boolean): SeatingConfig => ({
  turnTimes: [],
  defaultMealMinutes: 120,
  reseat,
  reseatFreezeMinutes: 60,
  shortenedMinMinutes: null,
});

describe('the day search reads as much as its answer needs', () => {
  const twoRooms = (bookings: PrenotazioneRecord[]): Restaurant => ({
    tables: [
      { id: 'A1', seats: 2, salaId: 'R' },
      { id: 'A2', seats: 4, salaId: 'R' },
      { id: 'B1', seats: 2, salaId: 'S' },
      { id: 'B2', seats: 2, salaId: 'S' },
    ],
    combinations: [],
    config: config(true),
    bookings,
  });

  it("with a free place at every slot: only the room's tables and their holds, no bookings", async () => {
    const { deps, reads } = depsOf(
      twoRooms([booking('b1', ['A1'], '19:00', 120), booking('b2', ['B1'], '20:00', 120)]),
    );
    const answer = await new AvailabilityService(deps).day({ data: DAY, coperti: 2, salaId: 'R' });
    expect(answer.times).toHaveLength(SLOTS.length);
    expect(reads.listedTables).toEqual(['A1', 'A2']);
    expect(new Set(reads.heldTables)).toEqual(new Set(['A1', 'A2']));
    expect(reads.bookings).toBe(0);
  });

  it('with a slot only re-seating can free: every table and the bookings, and the re-seated time offered', async () => {
    // S at 18:30: B1 is needed at 19:00 and B2 is taken until 19:00; moving the 19:00 couple to B2 seats one
    const { deps, reads } = depsOf(
      twoRooms([booking('b1', ['B1'], '19:00', 120), booking('b2', ['B2'], '17:00', 120, false)]),
    );
    const answer = await new AvailabilityService(deps).day({ data: DAY, coperti: 2, salaId: 'S' });
    expect(answer.times.map((t) => t.time)).toContain('18:30');
    expect(answer.times.map((t) => t.time)).toEqual(await wholeRead(deps, 2, 'S'));
    // the room's tables first, every room's once a slot needs re-seating
    expect(reads.listedTables.slice(0, 6)).toEqual(['B1', 'B2', 'A1', 'A2', 'B1', 'B2']);
    expect(new Set(reads.heldTables)).toEqual(new Set(['A1', 'A2', 'B1', 'B2']));
    expect(reads.bookings).toBeGreaterThan(0);
  });
});

/** The answer over the whole read (every table's holds and the bookings up front), as `day` answered it before. */
async function wholeRead(deps: AvailabilityDeps, covers: number, salaId: string | null): Promise<string[]> {
  const places = await readPlaces(deps);
  const [read] = await readDays(deps, places, [{ date: DAY, slots: SLOTS }]);
  const { reseat } = read!;
  return searchDay({
    ...read!.search,
    covers,
    turnMinutes: places.config.defaultMealMinutes,
    salaId,
    wished: null,
    limit: null,
    reseat: reseat && ((fitting, window) => reseat(covers, fitting, window)),
  }).map((t) => clockOf(t.startsAt));
}

describe('the room read first answers what the whole read answers', () => {
  it.each(Array.from({ length: 40 }, (_, i) => i + 1))('restaurant %i', async (seed) => {
    const random = mulberry32(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const tables = Array.from({ length: 3 + Math.floor(random() * 6) }, (_, i) => ({
      id: `T${i}`,
      seats: pick([2, 2, 4, 4, 6]),
      salaId: pick(['R', 'R', 'S']),
    }));
    const clocks = SLOTS.map((s) => clockOf(s.startsAt));
    const bookings = Array.from({ length: Math.floor(random() * 3 * tables.length) }, (_, i) =>
      booking(`b${i}`, [pick(tables).id], pick(clocks), pick([60, 90, 120, 150]), random() < 0.7),
    );
    // bookings of one table never overlap (what the guard keeps)
    const kept = bookings.filter(
      (b, i) =>
        !bookings
          .slice(0, i)
          .some(
            (o) =>
              o.tableIds[0] === b.tableIds[0] &&
              Date.parse(o.startsAt) < Date.parse(b.startsAt) + b.effectiveDurationMinutes! * MIN &&
              Date.parse(b.startsAt) < Date.parse(o.startsAt) + o.effectiveDurationMinutes! * MIN,
          ),
    );
    const restaurant: Restaurant = {
      tables,
      combinations: [],
      config: config(random() < 0.8),
      bookings: kept,
    };
    const { deps } = depsOf(restaurant);
    const service = new AvailabilityService(deps);
    for (const salaId of ['R', 'S', null]) {
      for (const covers of [2, 4, 6]) {
        const answer = await service.day({ data: DAY, coperti: covers, ...(salaId ? { salaId } : {}) });
        expect(
          answer.times.map((t) => t.time),
          `${covers} in ${salaId}`,
        ).toEqual(await wholeRead(deps, covers, salaId));
      }
    }
  });
});

/** A small seeded generator, so every seed is the same restaurant on every run. */
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
