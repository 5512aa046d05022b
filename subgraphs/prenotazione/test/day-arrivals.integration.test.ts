// prenotazione's `arriviGiorno` (capacity's pacing and occupancy count) on both real stores: the embedded store and
// the MongoDB-protocol server. The store sums the day's active bookings by start and stay; the answer must be the
// sums of the documents `prenotazioniGiorno` answers, whatever the states, durations and other tenants.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import { bumpReadScope, createMemoryCache, READ_SCOPES, readScopeVersion, type Cache } from '@coperto/cache';
import { connectMongoStore, openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { newTenantId, serverUrls, uniqueName } from '@coperto/testkit';
import { arrivalsOf, createKeptArrivals, type Arrivals } from '../src/availability/day-arrivals.js';
import type { PrenotazioneRecord } from '../src/bookings/prenotazione-record.js';
import { PRENOTAZIONI_COLLECTION, PrenotazioneStore } from '../src/bookings/prenotazione-store.js';
import { createPrenotazioneServices, type ServiceParts } from '../src/context.js';
import { effectiveMinutes } from '../src/seating/holds.js';
import { noSubgraphCalls, seatingWorld, worldSources } from './seating-fixture.js';

const DAY = '2027-03-12';
const ZONE = 'Europe/Rome';

/** The arrivals the documents give: the day's active bookings summed by start and effective duration. */
function sumsOf(bookings: readonly PrenotazioneRecord[]): Arrivals[] {
  return arrivalsOf(
    bookings.map((b) => ({
      key: {
        startsAt: b.startsAt,
        effectiveDurationMinutes: effectiveMinutes(b),
        durationMinutes: null,
      },
      count: 1,
      sums: { covers: b.covers },
    })),
  );
}

const stores: Array<[string, () => Promise<{ store: DocumentStore; close: () => Promise<void> }>]> = [
  [
    'embedded',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'prenotazione-arrivals-'));
      const store = await openEmbeddedStore({ directory: dir, fsync: false });
      return {
        store,
        close: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'MongoDB',
    async () => {
      const store = await connectMongoStore({ url: serverUrls().mongoUrl, database: uniqueName('arrivals') });
      return { store, close: () => store.close() };
    },
  ],
];

describe.each(stores)('arriviGiorno on the %s store', (_, open) => {
  let opened: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    await opened?.close();
  });

  const services = (tenant: string, parts: Partial<ServiceParts> = {}) => {
    const viewer: Viewer = {
      tenantId: trustedTenantId(tenant),
      subject: null,
      roles: [],
      isAdmin: false,
      token: 'x',
    };
    const world = seatingWorld({
      // parties of up to 2 stay 90 minutes, larger ones 150: durations differ within one start
      config: {
        ...seatingWorld().config,
        turnTimes: [
          { maxCovers: 2, minutes: 90 },
          { maxCovers: 8, minutes: 150 },
        ],
      },
    });
    return createPrenotazioneServices({
      tenantStore: opened.store.forTenant(viewer.tenantId),
      viewer,
      subgraphs: noSubgraphCalls,
      timeZone: ZONE,
      now: () => new Date('2027-03-01T10:00:00Z'),
      seating: worldSources(world),
      onEventsWritten: () => {},
      ...parts,
    });
  };
  const booking = (
    covers: number,
    clock: string,
    extra: { durationMinutes?: number; date?: string } = {},
  ) => ({
    covers,
    bookingDate: `${extra.date ?? DAY}T${clock}`,
    customerName: 'Pacing',
    ...(extra.durationMinutes ? { durationMinutes: extra.durationMinutes } : {}),
  });

  it('sums the active bookings of the day by start and stay, as the documents do, the tenant’s own only', async () => {
    const tenant = newTenantId();
    const { prenotazioni, arrivals } = services(tenant);
    const make = (covers: number, clock: string, extra?: Parameters<typeof booking>[2]) =>
      prenotazioni.create(booking(covers, clock, extra));
    await make(2, '19:00'); // 90 minutes
    await make(2, '19:00');
    await make(4, '19:00'); // 150 minutes
    await make(3, '19:00', { durationMinutes: 60 }); // its own
    const confirmed = await make(5, '20:00');
    await prenotazioni.changeState(confirmed.id, 'confermata');
    const deposit = await make(6, '20:00');
    await prenotazioni.changeState(deposit.id, 'caparra_pagata');
    // what does not count: cancelled, completed, no-show, another day, another tenant
    for (const state of ['annullata', 'completata', 'no_show'] as const) {
      const gone = await make(7, '19:00');
      if (state !== 'annullata') await prenotazioni.changeState(gone.id, 'confermata');
      await prenotazioni.changeState(gone.id, state);
    }
    await make(8, '19:00', { date: '2027-03-13' });
    await services(newTenantId()).prenotazioni.create(booking(8, '19:00'));

    const answer = await arrivals.ofDay(DAY);
    const at = (clock: string) => new Date(`${DAY}T${clock}:00+01:00`).toISOString();
    expect(answer).toEqual([
      { startsAt: at('19:00'), effectiveDurationMinutes: 60, covers: 3, bookings: 1 },
      { startsAt: at('19:00'), effectiveDurationMinutes: 90, covers: 4, bookings: 2 },
      { startsAt: at('19:00'), effectiveDurationMinutes: 150, covers: 4, bookings: 1 },
      { startsAt: at('20:00'), effectiveDurationMinutes: 150, covers: 11, bookings: 2 },
    ]);
    expect(answer).toEqual(sumsOf(await prenotazioni.day(DAY)));
  });

  it('counts a record stored before effective durations with its own duration, else 120 minutes', async () => {
    const tenant = newTenantId();
    const { prenotazioni, arrivals } = services(tenant);
    const current = await prenotazioni.create(booking(2, '21:00')); // 90 minutes, stored
    const collection = opened.store
      .forTenant(trustedTenantId(tenant))
      .collection<PrenotazioneRecord>(PRENOTAZIONI_COLLECTION);
    const legacy = (id: string, durationMinutes: number | null) => {
      const { effectiveDurationMinutes: _, ...record } = current;
      return collection.insertOne({
        ...record,
        id,
        codice: id.toUpperCase().padEnd(6, 'X'),
        durationMinutes,
      });
    };
    await legacy('old90', 90);
    await legacy('old', null);
    const answer = await arrivals.ofDay(DAY);
    expect(answer.map((a) => [a.effectiveDurationMinutes, a.covers, a.bookings])).toEqual([
      [90, 4, 2],
      [120, 2, 1],
    ]);
    expect(answer).toEqual(sumsOf(await prenotazioni.day(DAY)));
  });

  describe('kept in each process under the bookings read scope', () => {
    /** One process's services for the tenant: its own kept sums, the shared cache, its store reads counted. */
    const process = (tenant: string, cache: Cache) => {
      const tenantCache = cache.forTenant(trustedTenantId(tenant));
      const onBookingsWritten = () => bumpReadScope(tenantCache, READ_SCOPES.bookings);
      const store = new PrenotazioneStore(opened.store.forTenant(trustedTenantId(tenant)), onBookingsWritten);
      const sums = { reads: 0 };
      const arrivalsOfDay = store.arrivalsOfDay.bind(store);
      store.arrivalsOfDay = (date) => {
        sums.reads++;
        return arrivalsOfDay(date);
      };
      const built = services(tenant, {
        stores: { bookings: store },
        keptArrivals: {
          copies: createKeptArrivals(),
          tenantId: tenant,
          version: () => readScopeVersion(tenantCache, READ_SCOPES.bookings),
        },
      });
      return { ...built, sums };
    };
    const covers = async (p: ReturnType<typeof process>) =>
      (await p.arrivals.ofDay(DAY)).reduce((sum, a) => sum + a.covers, 0);

    it('sums a day once while nobody books, and counts a booking made or cancelled through any process at once', async () => {
      const cache = createMemoryCache();
      const tenant = newTenantId();
      const [one, two] = [process(tenant, cache), process(tenant, cache)];
      const first = await one.prenotazioni.create(booking(2, '19:00'));
      expect(await covers(one)).toBe(2);
      expect(await covers(one)).toBe(2);
      expect(one.sums.reads).toBe(1);
      await two.prenotazioni.create(booking(4, '20:00')); // the other process's write
      expect(await covers(one)).toBe(6);
      expect(one.sums.reads).toBe(2);
      await two.prenotazioni.changeState(first.id, 'annullata'); // a replace
      expect(await covers(one)).toBe(4);
      expect(await covers(two)).toBe(4);
      // another tenant's writes leave this tenant's kept sums alone
      await process(newTenantId(), cache).prenotazioni.create(booking(3, '19:00'));
      expect(await covers(one)).toBe(4);
      expect(one.sums.reads).toBe(3);
      await cache.close();
    });
  });

  it('answers nothing for a day without bookings and refuses a bad date (400)', async () => {
    const { arrivals } = services(newTenantId());
    expect(await arrivals.ofDay(DAY)).toEqual([]);
    await expect(arrivals.ofDay('12/03/2027')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
