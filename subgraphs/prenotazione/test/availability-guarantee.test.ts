import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { createPrenotazioneServices } from '../src/context.js';
import { noSubgraphCalls, seatingWorld, worldSources, type SeatingWorld } from './seating-fixture.js';

/**
 * "A time the search offers can be booked", and its converse, against the real booking path over the embedded
 * store: seeded restaurants (tables of two rooms, combinations, turn times, re-seating on or off, a freeze,
 * shortened seatings) with bookings already made; every time the day search offers is booked with autoAssign
 * (and the offered durationMinutes when shortened) and must succeed, and every slot it does not offer at the
 * full turn time must be refused with 409 NO_TABLE_AVAILABLE. (The converse is not a promise in general: the
 * search gives re-seating a smaller budget per slot, SEARCH_RESEAT_STEPS. These restaurants are small enough for
 * its search to end within it, so here the search and the booking agree both ways.)
 */
describe('the day search agrees with the booking path', () => {
  let dir: string;
  let store: DocumentStore;
  const clock = Date.parse('2027-01-10T10:00:00Z');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prenotazione-availability-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const DAY = '2027-02-01';
  const clocks = Array.from({ length: 20 }, (_, i) => {
    const minutes = 18 * 60 + i * 15;
    return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  });
  /** 18:00-22:45 every 15 minutes, Europe/Rome (UTC+1 on that day), pacing never the limit here. */
  const slots = clocks.map((c) => ({ startsAt: Date.parse(`${DAY}T${c}:00+01:00`), coversBookable: 1000 }));

  function restaurant(seed: number, fixed: { shortenedMinMinutes?: number | null } = {}) {
    const random = mulberry32(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const tables = Array.from({ length: 3 + Math.floor(random() * 5) }, (_, i) => ({
      id: `T${i}`,
      seats: pick([2, 2, 4, 4, 6]),
      salaId: i % 3 === 2 ? 'S' : 'R',
    }));
    const inR = tables.filter((t) => t.salaId === 'R');
    const world: SeatingWorld = seatingWorld({
      tables,
      combinations:
        inR.length >= 2
          ? [
              {
                id: 'C01',
                tableIds: [inR[0]!.id, inR[1]!.id],
                salaId: 'R',
                minCovers: 3,
                maxCovers: inR[0]!.seats + inR[1]!.seats - 1,
                attivo: true,
              },
            ]
          : [],
    });
    world.config = {
      turnTimes: pick([
        [],
        [
          { maxCovers: 2, minutes: 90 },
          { maxCovers: 4, minutes: 120 },
          { maxCovers: 8, minutes: 150 },
        ],
      ]),
      defaultMealMinutes: pick([90, 120]),
      reseat: random() < 0.6,
      reseatFreezeMinutes: pick([0, 60, 60 * 24 * 60]),
      shortenedMinMinutes: null,
    };
    const drawn = pick([null, 30, 60]);
    world.config.shortenedMinMinutes =
      fixed.shortenedMinMinutes === undefined ? drawn : fixed.shortenedMinMinutes;
    const viewer: Viewer = {
      tenantId: trustedTenantId(`t_availability_${seed}`),
      subject: null,
      roles: [],
      isAdmin: false,
      token: 'x',
    };
    const services = createPrenotazioneServices({
      tenantStore: store.forTenant(viewer.tenantId),
      viewer,
      subgraphs: noSubgraphCalls,
      seating: worldSources(world),
      timeZone: 'Europe/Rome',
      now: () => new Date(clock),
      onEventsWritten: () => {},
      bookableSlots: async () => slots,
    });
    const bookings = services.prenotazioni;
    const options = services.opzioni;
    const availability = services.availability;
    return { random, pick, tables, world, bookings, options, availability };
  }

  it('offers a time only re-seating makes room for, and the booking re-seats for it', async () => {
    const { bookings, options, availability, world } = restaurant(100, { shortenedMinMinutes: null });
    world.tables = [
      { id: 'A2', seats: 2, salaId: 'R' },
      { id: 'B2', seats: 2, salaId: 'R' },
    ];
    world.combinations = [];
    world.config = {
      turnTimes: [],
      defaultMealMinutes: 120,
      reseat: true,
      reseatFreezeMinutes: 60,
      shortenedMinMinutes: null,
    };
    const book = (clockAt: string, extra: Record<string, unknown>) =>
      bookings.create({ covers: 2, bookingDate: `${DAY}T${clockAt}`, customerName: 'Guest', ...extra });
    const moved = await book('19:00', { autoAssign: true }); // both free: A2, the first listed
    expect(moved.tableIds).toEqual(['A2']);
    await book('17:00', { tableIds: ['B2'] });
    const nearest = async () =>
      (await availability.day({ data: DAY, coperti: 2, ora: '18:30', limite: 1 })).times;
    // at 18:30 A2 is needed at 19:00 and B2 is taken until 19:00: only moving the 19:00 party to B2 seats a couple
    expect(await nearest()).toMatchObject([{ time: '18:30', durationMinutes: 120, tableIds: ['A2'] }]);
    world.config = { ...world.config, reseat: false };
    expect((await nearest())[0]?.time).not.toBe('18:30');
    await expect(book('18:30', { autoAssign: true })).rejects.toMatchObject({ code: 'NO_TABLE_AVAILABLE' });
    world.config = { ...world.config, reseat: true };
    // held with an option while the guest types (autoAssign re-seats there too), then booked from it
    const option = await options.create({ covers: 2, bookingDate: `${DAY}T18:30`, autoAssign: true });
    expect(option.tableIds).toEqual(['A2']);
    expect((await bookings.get(moved.id))?.tableIds).toEqual(['B2']);
    expect((await bookings.create({ opzioneId: option.id, customerName: 'Guest' })).tableIds).toEqual(['A2']);
  });

  it.each(Array.from({ length: 16 }, (_, i) => i + 1))('seed %i', async (seed) => {
    const { random, pick, tables, bookings, availability } = restaurant(seed);
    const book = (covers: number, clockAt: string, extra: Record<string, unknown> = {}) =>
      bookings.create({ covers, bookingDate: `${DAY}T${clockAt}`, customerName: 'Guest', ...extra });
    // the evening so far: auto-assigned and manual bookings (refusals are part of the evening too)
    for (let i = 0; i < 8 + Math.floor(random() * 16); i++) {
      const covers = pick([1, 2, 2, 3, 4, 5, 6]);
      const manual = random() < 0.3;
      await book(covers, pick(clocks), manual ? { tableIds: [pick(tables).id] } : { autoAssign: true }).catch(
        (error: { code?: string }) => {
          if (!['NO_TABLE_AVAILABLE', 'TABLE_UNAVAILABLE'].includes(error.code ?? '')) throw error;
        },
      );
    }
    const stats = { offered: 0, shortened: 0, refused: 0 };
    for (let round = 0; round < 4; round++) {
      const covers = pick([1, 2, 3, 4, 5, 6]);
      const { times } = await availability.day({ data: DAY, coperti: covers });
      // the search for every party size at once answers each party as the single-size search does
      const parties = [1, 2, 3, 4, 5, 6];
      const all = await availability.days({ date: [DAY], covers: parties });
      for (const [i, party] of parties.entries()) {
        expect(all[i]).toEqual(await availability.day({ date: DAY, covers: party }));
      }
      // every time offered can be booked (each booking then cancelled, which frees its tables)
      for (const time of times) {
        const made = await book(covers, time.time, {
          autoAssign: true,
          ...(time.shortened ? { durationMinutes: time.durationMinutes } : {}),
        }).catch((error: unknown) => {
          throw new Error(
            `${covers} at ${time.time} (${time.durationMinutes} min) was offered: ${String(error)}`,
          );
        });
        expect(made.effectiveDurationMinutes).toBe(time.durationMinutes);
        await bookings.changeState(made.id, 'annullata');
        stats.offered++;
        if (time.shortened) stats.shortened++;
      }
      // every slot not offered at the full turn time is refused
      const full = new Set(times.filter((t) => !t.shortened).map((t) => t.time));
      for (const c of clocks.filter((c) => !full.has(c))) {
        await expect(book(covers, c, { autoAssign: true }), `${covers} at ${c}`).rejects.toMatchObject({
          code: 'NO_TABLE_AVAILABLE',
        });
        stats.refused++;
      }
      // then the evening moves on: one offered time taken for good
      if (times.length > 0) {
        const chosen = pick(times);
        await book(covers, chosen.time, {
          autoAssign: true,
          ...(chosen.shortened ? { durationMinutes: chosen.durationMinutes } : {}),
        });
      }
    }
    expect(stats.offered + stats.refused).toBeGreaterThan(0);
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
