import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import { openEmbeddedStore, StoreUnavailableError, type DocumentStore } from '@coperto/store';
import { OpzioneStore } from '../src/options/opzione-store.js';
import { PrenotazioneStore } from '../src/bookings/prenotazione-store.js';
import { createPrenotazioneServices } from '../src/context.js';
import { TableAgendaStore } from '../src/seating/table-agenda-store.js';
import type { SeatingSources } from '../src/seating/seating-sources.js';
import type { PrenotazioneInput } from '../src/generated/resolvers-types.js';
import { seatingWorld, noSubgraphCalls, worldSources, type SeatingWorld } from './seating-fixture.js';

/**
 * Seating rules of the booking service against the embedded store: turn times, combinations, auto-assignment,
 * re-seating and options. tavolo and capacity are the injected `world` (their own reads are tested e2e).
 */
describe('seating', () => {
  let dir: string;
  let store: DocumentStore;
  let clock: number;
  let tenant = 0;
  let viewer: Viewer;
  let world: SeatingWorld;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prenotazione-seating-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    clock = Date.parse('2027-01-10T10:00:00Z');
    viewer = {
      tenantId: trustedTenantId(`t_seating_${++tenant}`),
      subject: null,
      roles: [],
      isAdmin: false,
      token: 'x',
    };
    world = seatingWorld({
      tables: [
        { id: 'A2', seats: 2, salaId: 'R' },
        { id: 'B4', seats: 4, salaId: 'R' },
        { id: 'C4', seats: 4, salaId: 'R' },
        { id: 'D6', seats: 6, salaId: 'S' },
      ],
      combinations: [
        { id: 'BC', tableIds: ['B4', 'C4'], salaId: 'R', minCovers: 5, maxCovers: 7, attivo: true },
        { id: 'OFF', tableIds: ['A2', 'B4'], salaId: 'R', minCovers: 1, maxCovers: 6, attivo: false },
      ],
    });
  });

  const tenantStore = () => store.forTenant(viewer.tenantId);
  interface Parts {
    store?: PrenotazioneStore;
    agenda?: TableAgendaStore;
    options?: OpzioneStore;
    seating?: SeatingSources;
  }
  const services = (parts: Parts = {}) =>
    createPrenotazioneServices({
      tenantStore: tenantStore(),
      stores: { bookings: parts.store, agenda: parts.agenda, options: parts.options },
      viewer,
      subgraphs: noSubgraphCalls,
      seating: parts.seating ?? worldSources(world),
      timeZone: 'Europe/Rome',
      now: () => new Date(clock),
      onEventsWritten: () => {},
    });
  const service = (parts: Parts = {}) => services(parts).prenotazioni;
  const options = (parts: Parts = {}) => services(parts).opzioni;
  const at = (time = '20:00') => `2027-02-01T${time}`;
  const book = (covers: number, extra: Partial<PrenotazioneInput> = {}) =>
    service().create({ covers, bookingDate: at(), customerName: 'Seat', ...extra });
  const held = (tableIds: string[], from = '2027-02-01T19:00:00Z', to = '2027-02-01T21:00:00Z') =>
    services().agenda.holdsInWindow({ from, to, tableIds });
  const updatedEvents = async (id: string) =>
    (await store.outbox(['prenotazioni']).claimPending(1000, 1000))
      .filter((p) => p.id === id)
      .flatMap((p) => p.messages.map((m) => m.body as { type: string; data: Record<string, unknown> }))
      .filter((e) => e.type === 'bookings.updated');

  describe('turn times', () => {
    it("fixes the turn time for the party's covers as the effective duration; its own duration wins", async () => {
      world.config.turnTimes = [
        { maxCovers: 2, minutes: 75 },
        { maxCovers: 4, minutes: 105 },
      ];
      expect((await book(2)).effectiveDurationMinutes).toBe(75);
      expect((await book(3)).effectiveDurationMinutes).toBe(105);
      expect((await book(9)).effectiveDurationMinutes).toBe(105);
      expect((await book(3, { durationMinutes: 30 })).effectiveDurationMinutes).toBe(30);
      world.config.turnTimes = [];
      world.config.defaultMealMinutes = 95;
      expect((await book(3)).effectiveDurationMinutes).toBe(95);
    });

    it('a change of covers fixes it anew and holds the tables for the new window', async () => {
      world.config.turnTimes = [
        { maxCovers: 2, minutes: 60 },
        { maxCovers: 4, minutes: 180 },
      ];
      const created = await book(2, { tableIds: ['B4'] });
      const grown = await service().update(created.id, { covers: 4 });
      expect(grown.effectiveDurationMinutes).toBe(180);
      await expect(book(2, { tableIds: ['B4'], bookingDate: at('22:00') })).rejects.toMatchObject({
        code: 'TABLE_UNAVAILABLE',
      });
    });
  });

  describe('placement input', () => {
    it.each([
      [{ tableIds: ['A2'], autoAssign: true }, 'autoAssign'],
      [{ tableIds: ['A2'], combinationId: 'BC' }, 'combinationId'],
      [{ combinationId: 'BC', autoAssign: true }, 'autoAssign'],
      [{ combinationId: '' }, 'combinationId'],
    ])('refuses %j naming %s', async (extra, field) => {
      const error = await book(6, extra).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect((error as { issues: Array<{ field: string }> }).issues.map((i) => i.field)).toContain(field);
      expect(await service().list({})).toEqual([]);
    });
  });

  describe('combinations', () => {
    it("books the combination's tables as a unit, manual, with its id", async () => {
      const created = await book(6, { combinationId: 'BC' });
      expect(created).toMatchObject({ tableIds: ['B4', 'C4'], combinationId: 'BC', assegnazione: 'manual' });
      expect((await held(['B4', 'C4'])).map((h) => h.tableId).sort()).toEqual(['B4', 'C4']);
      // a table of a booked combination is not free, and a combination with a booked table is not either
      await expect(book(2, { tableIds: ['C4'] })).rejects.toMatchObject({ code: 'TABLE_UNAVAILABLE' });
    });

    it('all or none: a combination with one table taken claims nothing', async () => {
      await book(2, { tableIds: ['C4'] });
      await expect(book(6, { combinationId: 'BC' })).rejects.toMatchObject({ code: 'TABLE_UNAVAILABLE' });
      expect((await held(['B4'])).length).toBe(0);
      expect((await book(2, { tableIds: ['B4'] })).tableIds).toEqual(['B4']);
    });

    it('all or none under concurrency: racing combinations and single tables never share a table', async () => {
      const attempts = await Promise.allSettled([
        book(6, { combinationId: 'BC' }),
        book(2, { tableIds: ['B4'] }),
        book(2, { tableIds: ['C4'] }),
        book(6, { combinationId: 'BC' }),
      ]);
      const won = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value.tableIds] : []));
      const tables = won.flat();
      expect(new Set(tables).size).toBe(tables.length);
      expect(won.length).toBeGreaterThanOrEqual(1);
      const holds = await held(['B4', 'C4']);
      expect(holds.map((h) => h.tableId).sort()).toEqual([...tables].sort());
    });

    it('refuses an unknown combination and an inactive one with 400 naming combinationId (404 is the URL’s id)', async () => {
      await expect(book(4, { combinationId: 'NOPE' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'combinationId', message: expect.stringContaining('does not exist') }] },
      });
      await expect(book(4, { combinationId: 'OFF' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'combinationId', message: expect.stringContaining('is not active') }] },
      });
    });

    it('refuses a party outside the combination range', async () => {
      await expect(book(4, { combinationId: 'BC' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'combinationId' }] },
      });
      await expect(book(8, { combinationId: 'BC' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('PATCH moves a booking onto a combination', async () => {
      const created = await book(6, { tableIds: ['D6'] });
      const moved = await service().update(created.id, { combinationId: 'BC' });
      expect(moved).toMatchObject({ tableIds: ['B4', 'C4'], combinationId: 'BC' });
      expect(await held(['D6'])).toEqual([]);
    });
  });

  describe('auto-assignment', () => {
    it('takes the fitting single table with fewest empty seats, then combinations, then 409', async () => {
      world.config.reseat = false;
      const two = await book(2, { autoAssign: true });
      expect(two).toMatchObject({ tableIds: ['A2'], combinationId: null, assegnazione: 'auto' });
      const three = await book(3, { autoAssign: true });
      expect(three.tableIds).toEqual(['B4']);
      const second2 = await book(2, { autoAssign: true }); // A2 taken: a 4-top
      expect(second2.tableIds).toEqual(['C4']);
      const five = await book(5, { autoAssign: true }); // D6 (room S) before any combination
      expect(five.tableIds).toEqual(['D6']);
      await expect(book(2, { autoAssign: true })).rejects.toMatchObject({ code: 'NO_TABLE_AVAILABLE' });
    });

    it('prefers the table whose free time around the window is shortest', async () => {
      world.config.reseat = false;
      await book(4, { tableIds: ['C4'], bookingDate: at('18:00'), durationMinutes: 120 });
      // B4 and C4 both fit 4; C4 is busy until 20:00, so its gap is shorter
      expect((await book(4, { autoAssign: true })).tableIds).toEqual(['C4']);
    });

    it('uses a combination when no single table fits', async () => {
      world.tables = world.tables.filter((t) => t.id !== 'D6');
      const created = await book(6, { autoAssign: true });
      expect(created).toMatchObject({ tableIds: ['B4', 'C4'], combinationId: 'BC', assegnazione: 'auto' });
    });

    it('N concurrent auto-assigned bookings for M tables: exactly min(N, M) succeed, never sharing a table', async () => {
      world.config.reseat = false;
      world.tables = [1, 2, 3, 4].map((n) => ({ id: `T${n}`, seats: 2, salaId: 'R' }));
      world.combinations = [];
      const attempts = await Promise.allSettled(
        Array.from({ length: 9 }, () => book(2, { autoAssign: true })),
      );
      const won = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value.tableIds[0]] : []));
      const lost = attempts.flatMap((a) => (a.status === 'rejected' ? [a.reason as { code: string }] : []));
      expect(won.sort()).toEqual(['T1', 'T2', 'T3', 'T4']);
      expect(lost.map((e) => e.code)).toEqual(Array(5).fill('NO_TABLE_AVAILABLE'));
    });

    it('PATCH with autoAssign re-places the booking (its own hold does not count against it)', async () => {
      const created = await book(2, { tableIds: ['B4'] });
      const moved = await service().update(created.id, { autoAssign: true });
      expect(moved).toMatchObject({ tableIds: ['A2'], assegnazione: 'auto' });
      expect((await held(['B4'])).length).toBe(0);
    });
  });

  describe('re-seating', () => {
    /** X (2 covers, auto) ends up on B4 because A2 was taken when it was booked; then A2 frees. */
    async function blockedFourTop() {
      world.combinations = [];
      world.tables = world.tables.filter((t) => t.id !== 'D6' && t.id !== 'C4');
      const manual = await book(2, { tableIds: ['A2'] });
      const auto = await book(2, { autoAssign: true });
      expect(auto.tableIds).toEqual(['B4']);
      await service().changeState(manual.id, 'annullata');
      return auto;
    }

    it('publishes previousTableIds: null on the events of bookings not re-seated (AsyncAPI: every field is there)', async () => {
      // Found by the generated seating suite: the events' data lacked the field the document requires.
      const booking = await book(2, { tableIds: ['A2'] });
      await service().changeState(booking.id, 'annullata');
      const events = (await store.outbox(['prenotazioni']).claimPending(1000, 1000))
        .filter((p) => p.id === booking.id)
        .flatMap((p) => p.messages.map((m) => m.body as { type: string; data: Record<string, unknown> }));
      expect(events.map((e) => e.type)).toEqual(['bookings.created', 'bookings.cancelled']);
      for (const e of events) expect(e.data).toHaveProperty('previousTableIds', null);
    });

    it('moves a future auto-assigned booking to free a table, publishing previousTableIds', async () => {
      const auto = await blockedFourTop();
      const four = await book(4, { autoAssign: true });
      expect(four.tableIds).toEqual(['B4']);
      const moved = await service().get(auto.id);
      expect(moved).toMatchObject({ tableIds: ['A2'], version: 2 });
      const events = await updatedEvents(auto.id);
      expect(events.at(-1)?.data).toMatchObject({ tableIds: ['A2'], previousTableIds: ['B4'] });
      const holds = await held(['A2', 'B4']);
      expect(holds.map((h) => [h.tableId, h.prenotazioneId]).sort()).toEqual(
        [
          ['A2', auto.id],
          ['B4', four.id],
        ].sort(),
      );
    });

    it('moves a chain: the blocking party goes to a table another party leaves for a third, written in that order', async () => {
      // Room R: A2, E2 (2 seats), B4. z (auto, 19:00–20:30) takes A2; w (manual, E2, 20:45–22:45); x (auto, a
      // couple, 20:00–22:00) finds A2 and E2 taken and gets B4. A four at 20:00 needs B4: x can only go to A2
      // (E2 is w's), and A2 is free for x only once z moves on to E2 (free until 20:45).
      world.combinations = [];
      world.tables = [
        { id: 'A2', seats: 2, salaId: 'R' },
        { id: 'E2', seats: 2, salaId: 'R' },
        { id: 'B4', seats: 4, salaId: 'R' },
      ];
      const z = await book(2, { bookingDate: at('19:00'), durationMinutes: 90, autoAssign: true });
      await book(2, { bookingDate: at('20:45'), durationMinutes: 120, tableIds: ['E2'] });
      const x = await book(2, { durationMinutes: 120, autoAssign: true });
      expect([z.tableIds, x.tableIds]).toEqual([['A2'], ['B4']]);
      const four = await book(4, { durationMinutes: 120, autoAssign: true });
      expect(four.tableIds).toEqual(['B4']);
      expect(await service().get(z.id)).toMatchObject({ tableIds: ['E2'], version: 2 });
      expect(await service().get(x.id)).toMatchObject({ tableIds: ['A2'], version: 2 });
      const events = (await store.outbox(['prenotazioni']).claimPending(1000, 1000)).flatMap((p) =>
        p.messages.map((m) => m.body as { type: string; data: { id: string; previousTableIds: unknown } }),
      );
      // only this test's bookings: the store is shared, and an earlier test's claimed events come back to
      // claimPending once their lease has run out (a loaded machine)
      const mine = new Set([z.id, x.id, four.id]);
      const moves = events
        .filter((e) => e.type === 'bookings.updated' && mine.has(e.data.id))
        .map((e) => [e.data.id, e.data.previousTableIds]);
      // each moved booking publishes its previous tables (the write order is the plan's: reseat-plan.test.ts)
      expect(moves.sort()).toEqual(
        [
          [z.id, ['A2']],
          [x.id, ['B4']],
        ].sort(),
      );
      const holds = await held(['A2', 'E2', 'B4'], '2027-02-01T17:00:00Z', '2027-02-01T22:00:00Z');
      const ours = new Set([x.id, z.id, four.id]);
      // w keeps its own hold on E2 from 20:45; every other hold is the plan's, one owner per table and time
      expect(
        holds
          .filter((h) => ours.has(h.prenotazioneId))
          .map((h) => `${h.tableId} ${h.prenotazioneId}`)
          .sort(),
      ).toEqual([`A2 ${x.id}`, `B4 ${four.id}`, `E2 ${z.id}`].sort());
      expect(holds).toHaveLength(4);
    });

    it('never moves a booking starting within reseatFreezeMinutes', async () => {
      await blockedFourTop();
      world.config.reseatFreezeMinutes = 60;
      clock = Date.parse('2027-02-01T18:30:00Z'); // 19:30 local: the 20:00 booking starts in 30 minutes
      await expect(book(4, { autoAssign: true })).rejects.toMatchObject({ code: 'NO_TABLE_AVAILABLE' });
    });

    it('never moves a manual booking, and not at all when reseat is off', async () => {
      const auto = await blockedFourTop();
      world.config.reseat = false;
      await expect(book(4, { autoAssign: true })).rejects.toMatchObject({ code: 'NO_TABLE_AVAILABLE' });
      world.config.reseat = true;
      await service().update(auto.id, { tableIds: ['B4'], notes: 'manual now' });
      expect((await service().get(auto.id))?.assegnazione).toBe('manual');
      await expect(book(4, { autoAssign: true })).rejects.toMatchObject({ code: 'NO_TABLE_AVAILABLE' });
    });

    it('gives up, moving nothing, when the destination is taken meanwhile', async () => {
      const auto = await blockedFourTop();
      const racing = service();
      const agenda = new TableAgendaStore(tenantStore());
      // someone books A2 between the plan and its claim: the plan's claim is refused
      const realClaim = agenda.claim.bind(agenda);
      let first = true;
      agenda.claim = async (tableId, entry, ignoring) => {
        if (first && tableId === 'A2' && entry.bookingId === auto.id) {
          first = false;
          await racing.create({ covers: 2, bookingDate: at(), customerName: 'Race', tableIds: ['A2'] });
        }
        return realClaim(tableId, entry, ignoring);
      };
      const svc = service({ agenda });
      await expect(
        svc.create({ covers: 4, bookingDate: at(), customerName: 'Seat', autoAssign: true }),
      ).rejects.toMatchObject({ code: 'NO_TABLE_AVAILABLE' });
      expect(await service().get(auto.id)).toMatchObject({ tableIds: ['B4'], version: 1 });
      expect((await held(['B4'])).map((h) => h.prenotazioneId)).toEqual([auto.id]);
    });
  });

  describe('options', () => {
    it('holds for its own durationMinutes, else for the turn time: capacity is asked only for the latter', async () => {
      world.config.turnTimes = [{ maxCovers: 2, minutes: 75 }];
      const own = await options().create({
        covers: 2,
        bookingDate: at(),
        tableIds: ['A2'],
        durationMinutes: 45,
      });
      expect([own.startsAt, own.endsAt]).toEqual(['2027-02-01T19:00:00.000Z', '2027-02-01T19:45:00.000Z']);
      const turn = await options().create({ covers: 2, bookingDate: at(), tableIds: ['B4'] });
      expect(turn.endsAt).toBe('2027-02-01T20:15:00.000Z');
      const capacityDown = {
        ...worldSources(world),
        config: () => Promise.reject(new Error('capacity unreachable')),
      };
      const without = await options({ seating: capacityDown }).create({
        covers: 2,
        bookingDate: at(),
        tableIds: ['C4'],
        durationMinutes: 45,
      });
      expect(without.endsAt).toBe('2027-02-01T19:45:00.000Z');
      await expect(
        options({ seating: capacityDown }).create({ covers: 2, bookingDate: at(), tableIds: ['D6'] }),
      ).rejects.toThrow('capacity unreachable');
    });

    it('holds its tables until expiresAt: the guard and the window query treat it like a booking', async () => {
      const option = await options().create({ covers: 2, bookingDate: at(), tableIds: ['A2'], ttl: 60 });
      expect(option).toMatchObject({ tableIds: ['A2'], assegnazione: 'manual', covers: 2 });
      expect(option.expiresAt).toBe('2027-01-10T10:01:00.000Z');
      expect((await held(['A2'])).map((h) => h.prenotazioneId)).toEqual([option.id]);
      await expect(book(2, { tableIds: ['A2'] })).rejects.toMatchObject({ code: 'TABLE_UNAVAILABLE' });
      expect((await options().list()).map((o) => o.id)).toEqual([option.id]);
      clock += 61_000; // expired: free with no request in between
      expect(await held(['A2'])).toEqual([]);
      expect(await options().list()).toEqual([]);
      expect((await book(2, { tableIds: ['A2'] })).tableIds).toEqual(['A2']);
      await expect(book(2, { opzioneId: option.id })).rejects.toMatchObject({ code: 'OPTION_EXPIRED' });
    });

    it("becomes a booking on the option's tables and window, exactly once", async () => {
      world.config.turnTimes = [{ maxCovers: 4, minutes: 90 }];
      const option = await options().create({ numeroPersone: 3, dataOra: at('21:00'), autoAssign: true });
      expect(option).toMatchObject({ tableIds: ['B4'], assegnazione: 'auto' });
      world.config.turnTimes = [{ maxCovers: 4, minutes: 200 }]; // the option's window stands
      const attempts = await Promise.allSettled([
        service().create({ customerName: 'Guest', opzioneId: option.id }),
        service().create({ customerName: 'Guest', holdId: option.id }),
      ]);
      const made = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
      expect(made).toHaveLength(1);
      expect(attempts.find((a) => a.status === 'rejected')).toMatchObject({
        reason: { code: 'OPTION_EXPIRED' },
      });
      expect(made[0]).toMatchObject({
        id: option.id,
        tableIds: ['B4'],
        covers: 3,
        bookingDate: '2027-02-01T21:00:00',
        effectiveDurationMinutes: 90,
        assegnazione: 'auto',
      });
      const holds = await held(['B4'], '2027-02-01T19:00:00Z', '2027-02-01T23:00:00Z');
      expect(holds).toHaveLength(1);
      expect(await options().list()).toEqual([]);
      await expect(service().create({ customerName: 'G', opzioneId: option.id })).rejects.toMatchObject({
        code: 'OPTION_EXPIRED',
      });
    });

    it('refuses a booking whose covers or date differ from the option, and unknown options', async () => {
      const option = await options().create({ covers: 2, bookingDate: at(), tableIds: ['A2'] });
      await expect(
        service().create({ customerName: 'G', opzioneId: option.id, covers: 3 }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: [{ field: 'covers' }] } });
      await expect(
        service().create({ customerName: 'G', opzioneId: option.id, bookingDate: at('21:00') }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: [{ field: 'bookingDate' }] } });
      await expect(
        service().create({ customerName: 'G', opzioneId: option.id, tableIds: ['B4'] }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(service().create({ customerName: 'G', opzioneId: 'nope' })).rejects.toMatchObject({
        code: 'OPTION_EXPIRED',
      });
      const same = await service().create({
        customerName: 'G',
        opzioneId: option.id,
        covers: 2,
        bookingDate: at(),
      });
      expect(same.tableIds).toEqual(['A2']);
    });

    it('release frees the tables at once; a second release says released: false', async () => {
      const option = await options().create({ covers: 6, bookingDate: at(), combinationId: 'BC' });
      expect(option.tableIds).toEqual(['B4', 'C4']);
      expect(await options().release(option.id)).toEqual({ id: option.id, released: true });
      expect(await held(['B4', 'C4'])).toEqual([]);
      expect(await options().release(option.id)).toEqual({ id: option.id, released: false });
      await expect(options().release('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(service().create({ customerName: 'G', opzioneId: option.id })).rejects.toMatchObject({
        code: 'OPTION_EXPIRED',
      });
    });

    it.each([
      [{ covers: 2, bookingDate: '2027-02-01T20:00' }, 'tableIds'],
      [{ covers: 2, bookingDate: '2027-02-01T20:00', tableIds: ['A2'], ttl: 29 }, 'ttl'],
      [{ covers: 2, bookingDate: '2027-02-01T20:00', tableIds: ['A2'], ttl: 901 }, 'ttl'],
      [{ bookingDate: '2027-02-01T20:00', tableIds: ['A2'] }, 'covers'],
      [{ covers: 2, tableIds: ['A2'], autoAssign: true, bookingDate: '2027-02-01T20:00' }, 'autoAssign'],
    ])('refuses option %j naming %s', async (input, field) => {
      const error = await options()
        .create(input)
        .catch((e: unknown) => e);
      expect((error as { issues: Array<{ field: string }> }).issues.map((i) => i.field)).toContain(field);
    });

    it('an auto-assigned option gets NO_TABLE_AVAILABLE when nothing fits', async () => {
      world.config.reseat = false;
      await expect(
        options().create({ covers: 9, bookingDate: at(), autoAssign: true }),
      ).rejects.toMatchObject({ code: 'NO_TABLE_AVAILABLE' });
    });
  });
  describe('a process killed in the middle leaves no phantom hold after IN_FLIGHT_CLAIM_MS', () => {
    /** A dead process cleans nothing up: its removals and releases never happen. */
    const deadAgenda = () => {
      const agenda = new TableAgendaStore(tenantStore());
      agenda.removeEntry = async () => {
        throw new Error('process killed');
      };
      agenda.release = async () => {
        throw new Error('process killed');
      };
      return agenda;
    };
    const killed = async () => {
      throw new Error('process killed');
    };

    it("between claiming an option's tables and storing it", async () => {
      const dying = new OpzioneStore(tenantStore());
      dying.insert = killed;
      await expect(
        options({ options: dying, agenda: deadAgenda() }).create({
          covers: 2,
          bookingDate: at(),
          tableIds: ['A2'],
        }),
      ).rejects.toThrow('process killed');
      await expect(book(2, { tableIds: ['A2'] })).rejects.toMatchObject({ code: 'TABLE_UNAVAILABLE' });
      clock += 31_000;
      expect((await book(2, { tableIds: ['A2'] })).tableIds).toEqual(['A2']);
    });

    it('between consuming an option and storing its booking', async () => {
      const option = await options().create({ covers: 2, bookingDate: at(), tableIds: ['A2'] });
      const dyingStore = new PrenotazioneStore(tenantStore());
      dyingStore.insert = killed;
      const dyingOptions = new OpzioneStore(tenantStore());
      dyingOptions.reopen = killed;
      await expect(
        service({ store: dyingStore, options: dyingOptions, agenda: deadAgenda() }).create({
          customerName: 'G',
          opzioneId: option.id,
        }),
      ).rejects.toThrow('process killed');
      expect(await service().list({})).toEqual([]);
      await expect(service().create({ customerName: 'G', opzioneId: option.id })).rejects.toMatchObject({
        code: 'OPTION_EXPIRED',
      });
      await expect(book(2, { tableIds: ['A2'] })).rejects.toMatchObject({ code: 'TABLE_UNAVAILABLE' });
      clock += 31_000;
      expect((await book(2, { tableIds: ['A2'] })).tableIds).toEqual(['A2']);
    });

    it('during re-seating, before any move is written: the moved booking keeps its table', async () => {
      world.combinations = [];
      world.tables = world.tables.filter((t) => t.id !== 'D6' && t.id !== 'C4');
      const manual = await book(2, { tableIds: ['A2'] });
      const auto = await book(2, { autoAssign: true });
      await service().changeState(manual.id, 'annullata');
      const dyingStore = new PrenotazioneStore(tenantStore());
      dyingStore.replace = killed;
      await expect(
        service({ store: dyingStore, agenda: deadAgenda() }).create({
          covers: 4,
          bookingDate: at(),
          customerName: 'Seat',
          autoAssign: true,
        }),
      ).rejects.toMatchObject({ code: 'NO_TABLE_AVAILABLE' });
      expect(await service().get(auto.id)).toMatchObject({ tableIds: ['B4'], version: 1 });
      // the claims left behind are in flight for a while, then stale; B4 stays the moved booking's
      await expect(book(2, { tableIds: ['A2'] })).rejects.toMatchObject({ code: 'TABLE_UNAVAILABLE' });
      clock += 31_000;
      expect((await held(['A2', 'B4'])).map((h) => [h.tableId, h.prenotazioneId])).toEqual([['B4', auto.id]]);
      expect((await book(2, { tableIds: ['A2'] })).tableIds).toEqual(['A2']);
    });
  });

  describe('a write whose answer is lost keeps its claim (the store applied it, then stopped answering)', () => {
    const lostAnswer = () => new StoreUnavailableError({ cause: new Error('connection closed') });

    it('an option stored without an answer keeps its tables', async () => {
      const applying = new OpzioneStore(tenantStore());
      const insert = applying.insert.bind(applying);
      applying.insert = async (...args) => {
        await insert(...args);
        throw lostAnswer();
      };
      await expect(
        options({ options: applying }).create({ covers: 2, bookingDate: at(), tableIds: ['A2'] }),
      ).rejects.toBeInstanceOf(StoreUnavailableError);
      expect((await options().list()).map((o) => o.tableIds)).toEqual([['A2']]);
      clock += 31_000;
      await expect(book(2, { tableIds: ['A2'] })).rejects.toMatchObject({ code: 'TABLE_UNAVAILABLE' });
    });

    it('a re-seating move stored without an answer keeps its new table; the party is not placed', async () => {
      world.combinations = [];
      world.tables = world.tables.filter((t) => t.id !== 'D6' && t.id !== 'C4');
      const manual = await book(2, { tableIds: ['A2'] });
      const auto = await book(2, { autoAssign: true });
      await service().changeState(manual.id, 'annullata');
      const applying = new PrenotazioneStore(tenantStore());
      const replace = applying.replace.bind(applying);
      applying.replace = async (...args) => {
        await replace(...args);
        throw lostAnswer();
      };
      await expect(
        service({ store: applying }).create({
          covers: 4,
          bookingDate: at(),
          customerName: 'Seat',
          autoAssign: true,
        }),
      ).rejects.toBeInstanceOf(StoreUnavailableError);
      const moved = await service().get(auto.id);
      expect(moved?.tableIds).not.toEqual(['B4']);
      clock += 31_000;
      await expect(book(2, { tableIds: moved!.tableIds })).rejects.toMatchObject({
        code: 'TABLE_UNAVAILABLE',
      });
      expect((await service().list({})).filter((b) => b.covers === 4)).toEqual([]);
    });
  });
});
