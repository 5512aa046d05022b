import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { createPrenotazioneServices } from '../src/context.js';
import type { QuoteTable } from '../src/waitlist/waitlist-quote.js';
import type { SeatingInputs } from '../src/waitlist/waitlist-seating-inputs.js';
import type { WalkInBookings } from '../src/waitlist/waitlist-seating.js';
import { WAITLIST_COLLECTION } from '../src/waitlist/waitlist-store.js';
import { noSubgraphCalls, seatingWorld, worldSources } from './seating-fixture.js';

/** tavolo's tables as the waitlist sees them, in memory (tavolo's own rules are tested in tavolo). */
class FloorTables implements SeatingInputs {
  byId = new Map<string, QuoteTable>();
  occupiedCalls = 0;
  /** Makes the next setOccupied die (a crash after the booking was written). */
  failNextSetOccupied = false;
  constructor(private readonly now: () => Date) {}
  add(id: string, seats: number, status: QuoteTable['status'] = 'free') {
    this.byId.set(id, { id, seats, active: true, status, statusSince: this.now().toISOString(), pax: null });
  }
  async tables() {
    return [...this.byId.values()].map((t) => ({ ...t }));
  }
  async combinations() {
    return [];
  }
  async seatingConfig() {
    return {
      defaultMealMinutes: 90,
      turnTimes: [
        { maxCovers: 2, minutes: 60 },
        { maxCovers: 6, minutes: 90 },
      ],
    };
  }
  async setOccupied(tableIds: readonly string[], covers: number) {
    if (this.failNextSetOccupied) {
      this.failNextSetOccupied = false;
      throw new Error('process killed');
    }
    this.occupiedCalls++;
    for (const id of tableIds) {
      const t = this.byId.get(id)!;
      this.byId.set(id, { ...t, status: 'occupied', pax: covers, statusSince: this.now().toISOString() });
    }
  }
}

describe('WaitlistService against the embedded store', () => {
  let dir: string;
  let store: DocumentStore;
  let clock: number;
  let tenant = 0;
  let viewer: Viewer;
  let floor: FloorTables;
  const now = () => new Date(clock);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'waitlist-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    // A fresh tenant per test: nothing leaks between them.
    viewer = {
      tenantId: trustedTenantId(`t_wait${++tenant}`),
      subject: null,
      roles: [],
      isAdmin: false,
      token: 'x',
    };
    clock = Date.parse('2027-03-05T18:30:00Z'); // 19:30 in Rome
    floor = new FloorTables(now);
  });

  /** The subgraph's services as the context builds them, the floor being `floor`. */
  const services = (walkIns?: WalkInBookings) =>
    createPrenotazioneServices({
      tenantStore: store.forTenant(viewer.tenantId),
      viewer,
      subgraphs: noSubgraphCalls,
      timeZone: 'Europe/Rome',
      now,
      seating: {
        ...worldSources(seatingWorld()),
        config: async () => ({ ...seatingWorld().config, defaultMealMinutes: 90 }),
      },
      onEventsWritten: () => {},
      waitlistInputs: floor,
      walkIns,
    });
  const bookings = () => services().prenotazioni;
  const waitlist = (overrides: { walkIns?: WalkInBookings } = {}) => services(overrides.walkIns).waitlist;
  /** The event types stored in the entry's outbox, in write order. */
  const eventsOf = async (id: string) => {
    const pending = await store.outbox([WAITLIST_COLLECTION]).claimPending(1000, 1);
    return (pending.find((p) => p.id === id && p.tenantId === viewer.tenantId)?.messages ?? []).map((m) => ({
      subject: m.subject,
      type: (m.body as { type: string }).type,
    }));
  };

  describe('adding a party', () => {
    it('validates: name 1..200, covers 1..1000, phone up to 50, notes up to 2000', async () => {
      const bad = [
        [{ covers: 2 }, 'customerName'],
        [{ customerName: '  ', covers: 2 }, 'customerName'],
        [{ customerName: 'x'.repeat(201), covers: 2 }, 'customerName'],
        [{ customerName: 'Rossi' }, 'covers'],
        [{ customerName: 'Rossi', covers: 0 }, 'covers'],
        [{ customerName: 'Rossi', covers: 1001 }, 'covers'],
        [{ customerName: 'Rossi', covers: 2, customerPhone: '1'.repeat(51) }, 'customerPhone'],
        [{ customerName: 'Rossi', covers: 2, notes: 'n'.repeat(2001) }, 'notes'],
      ] as const;
      for (const [input, field] of bad) {
        await expect(waitlist().add(input)).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
          details: { fields: expect.arrayContaining([expect.objectContaining({ field })]) },
        });
      }
      expect(await waitlist().list()).toEqual([]);
    });

    it('stores both name forms (English wins), waiting, first in line, quoted 0 at a free table', async () => {
      floor.add('T1', 4);
      const entry = await waitlist().add({
        customerName: 'Rossi',
        cliente: 'Bianchi',
        covers: 3,
        numeroPersone: 9,
        customerPhone: ' 333 ',
        notes: 'high chair',
      });
      expect(entry).toMatchObject({
        customerName: 'Rossi',
        cliente: 'Rossi',
        covers: 3,
        numeroPersone: 3,
        customerPhone: '333',
        notes: 'high chair',
        state: 'waiting',
        position: 1,
        quotedMinutes: 0,
        estimatedMinutes: 0,
        suggestedTableIds: ['T1'],
        quotedAt: now().toISOString(),
        tableIds: [],
        prenotazioneId: null,
      });
      expect(entry).not.toHaveProperty('version');
      expect(entry).not.toHaveProperty('seating');
      expect(await eventsOf(entry.id)).toEqual([
        { subject: `tenant.${viewer.tenantId}.restaurant.waitlist.updated`, type: 'waitlist.added' },
      ]);
    });

    it('quotes the parties ahead: the second party for one table waits for the first one’s turn', async () => {
      floor.add('T1', 4);
      const first = await waitlist().add({ customerName: 'A', covers: 4 });
      clock += 60_000;
      const second = await waitlist().add({ cliente: 'B', numeroPersone: 2 });
      expect(first.quotedMinutes).toBe(0);
      expect(second).toMatchObject({ position: 2, quotedMinutes: 90, customerName: 'B' }); // A, still waiting, takes T1 now for 90
      const list = await waitlist().list();
      expect(list.map((e) => [e.customerName, e.position, e.estimatedMinutes])).toEqual([
        ['A', 1, 0],
        ['B', 2, 90],
      ]);
    });

    it('a party no table holds is quoted null', async () => {
      floor.add('T1', 4);
      expect((await waitlist().add({ customerName: 'Big', covers: 12 })).quotedMinutes).toBeNull();
    });
  });

  describe('the list', () => {
    it('is today’s waiting and notified parties, oldest first', async () => {
      floor.add('T1', 4);
      const yesterday = await waitlist().add({ customerName: 'Old', covers: 2 });
      clock += 24 * 3_600_000;
      const a = await waitlist().add({ customerName: 'A', covers: 2 });
      clock += 1000;
      const b = await waitlist().add({ customerName: 'B', covers: 2 });
      clock += 1000;
      const c = await waitlist().add({ customerName: 'C', covers: 2 });
      await waitlist().notify(b.id);
      await waitlist().cancel(a.id, { state: 'left' });
      const list = await waitlist().list();
      expect(list.map((e) => [e.id, e.state, e.position])).toEqual([
        [b.id, 'notified', 1],
        [c.id, 'waiting', 2],
      ]);
      expect((await waitlist().get(yesterday.id))?.position).toBeNull();
    });
  });

  describe('state changes', () => {
    it('notify, the same again is a no-op without an event, then left with the reason', async () => {
      const entry = await waitlist().add({ customerName: 'A', covers: 2 });
      clock += 5000;
      const notified = await waitlist().notify(entry.id);
      expect(notified).toMatchObject({ state: 'notified', notifiedAt: now().toISOString(), position: 1 });
      clock += 5000;
      expect((await waitlist().notify(entry.id)).notifiedAt).toBe(notified.notifiedAt);
      const left = await waitlist().cancel(entry.id, { state: 'left', motivo: ' tired of waiting ' });
      expect(left).toMatchObject({ state: 'left', motivo: 'tired of waiting', position: null });
      expect((await eventsOf(entry.id)).map((e) => e.type)).toEqual([
        'waitlist.added',
        'waitlist.notified',
        'waitlist.left',
      ]);
    });

    it('annulla defaults to cancelled; final states are final (409); annulla takes only left or cancelled', async () => {
      const entry = await waitlist().add({ customerName: 'A', covers: 2 });
      await expect(waitlist().cancel(entry.id, { state: 'seated' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(waitlist().cancel(entry.id, { motivo: 'm'.repeat(501) })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      expect((await waitlist().cancel(entry.id, null)).state).toBe('cancelled');
      expect((await waitlist().cancel(entry.id, {})).state).toBe('cancelled'); // the same again
      await expect(waitlist().notify(entry.id)).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
      await expect(waitlist().cancel(entry.id, { state: 'left' })).rejects.toMatchObject({
        code: 'INVALID_TRANSITION',
      });
      await expect(waitlist().seat(entry.id, null)).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
      expect((await eventsOf(entry.id)).map((e) => e.type)).toEqual(['waitlist.added', 'waitlist.cancelled']);
    });

    it('an unknown id is 404 (another tenant’s too)', async () => {
      const entry = await waitlist().add({ customerName: 'A', covers: 2 });
      viewer = { ...viewer, tenantId: trustedTenantId('t_wait_other') };
      expect(await waitlist().get(entry.id)).toBeNull();
      await expect(waitlist().notify(entry.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(waitlist().seat(entry.id, null)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(waitlist().cancel(entry.id, null)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('seating', () => {
    it('on the suggested table: one confermata walk-in booking from now for the turn time, the table occupied', async () => {
      floor.add('T2', 2);
      floor.add('T4', 4);
      const entry = await waitlist().add({ customerName: 'Rossi', covers: 2, customerPhone: '333' });
      clock += 60_000;
      const seated = await waitlist().seat(entry.id, null);
      expect(seated).toMatchObject({
        state: 'seated',
        seatedAt: now().toISOString(),
        tableIds: ['T2'],
        position: null,
      });
      const booking = await bookings().get(seated.prenotazioneId!);
      expect(booking).toMatchObject({
        state: 'confermata',
        startsAt: now().toISOString(),
        covers: 2,
        customerName: 'Rossi',
        customerPhone: '333',
        tableIds: ['T2'],
        durationMinutes: 60, // the turn time for 2 covers
      });
      expect(floor.byId.get('T2')).toMatchObject({ status: 'occupied', pax: 2 });
      expect(floor.byId.get('T4')?.status).toBe('free');
      expect((await eventsOf(entry.id)).map((e) => e.type)).toEqual(['waitlist.added', 'waitlist.seated']);
      // Again: the same result, nothing more; other tables: 409.
      expect(await waitlist().seat(entry.id, null)).toEqual(seated);
      expect(await waitlist().seat(entry.id, { tableIds: ['T2'] })).toEqual(seated);
      await expect(waitlist().seat(entry.id, { tableIds: ['T4'] })).rejects.toMatchObject({
        code: 'INVALID_TRANSITION',
      });
      expect(await bookings().list({})).toHaveLength(1);
      expect(floor.occupiedCalls).toBe(1);
    });

    it('on chosen tables; refused on a table with guests (409), an unknown table or combination (409), or a booked table (409)', async () => {
      floor.add('T1', 4);
      floor.add('T2', 4, 'occupied');
      floor.add('T3', 4);
      // T3 is booked from 20:00 (30 minutes from now): a 90-minute party cannot sit there now.
      await bookings().create({
        customerName: 'Booked',
        covers: 2,
        bookingDate: '2027-03-05T20:00',
        tableIds: ['T3'],
        state: 'confermata',
      });
      const entry = await waitlist().add({ customerName: 'A', covers: 4 });
      await expect(waitlist().seat(entry.id, { tableIds: ['T2'] })).rejects.toMatchObject({
        code: 'TABLE_UNAVAILABLE',
      });
      await expect(waitlist().seat(entry.id, { tableIds: ['nope'] })).rejects.toMatchObject({
        code: 'TABLE_UNAVAILABLE',
      });
      await expect(waitlist().seat(entry.id, { tableIds: ['T1'], combinationId: 'c' })).rejects.toMatchObject(
        { code: 'VALIDATION_FAILED' },
      );
      await expect(waitlist().seat(entry.id, { combinationId: 'c' })).rejects.toMatchObject({
        code: 'TABLE_UNAVAILABLE',
      });
      await expect(waitlist().seat(entry.id, { tableIds: ['T3'] })).rejects.toMatchObject({
        code: 'TABLE_UNAVAILABLE',
      });
      // The refused seating left nothing behind: still waiting, seated later on T1 and T3 is free.
      expect((await waitlist().get(entry.id))?.state).toBe('waiting');
      expect(floor.byId.get('T3')?.status).toBe('free');
      const seated = await waitlist().seat(entry.id, { tableIds: ['T1'] });
      expect(seated).toMatchObject({ state: 'seated', tableIds: ['T1'] });
      expect((await bookings().list({})).map((b) => b.customerName).sort()).toEqual(['A', 'Booked']);
    });

    it('without a table free now: 409 NO_TABLE_AVAILABLE, the party keeps waiting', async () => {
      floor.add('T1', 4, 'occupied');
      const entry = await waitlist().add({ customerName: 'A', covers: 2 });
      await expect(waitlist().seat(entry.id, undefined)).rejects.toMatchObject({
        code: 'NO_TABLE_AVAILABLE',
      });
      expect((await waitlist().list())[0]).toMatchObject({ id: entry.id, state: 'waiting' });
    });

    it('a crash after the booking was written is rolled forward by a retry: one booking, seated, occupied', async () => {
      floor.add('T1', 4);
      const entry = await waitlist().add({ customerName: 'A', covers: 3 });
      floor.failNextSetOccupied = true;
      await expect(waitlist().seat(entry.id, { tableIds: ['T1'] })).rejects.toThrow('process killed');
      // Half done: the booking exists, the table is not occupied, the entry is not seated.
      expect(await bookings().list({})).toHaveLength(1);
      expect(floor.byId.get('T1')?.status).toBe('free');
      const seated = await waitlist().seat(entry.id, null);
      expect(seated).toMatchObject({ state: 'seated', tableIds: ['T1'] });
      const all = await bookings().list({});
      expect(all).toHaveLength(1);
      expect(seated.prenotazioneId).toBe(all[0]!.id);
      expect(floor.byId.get('T1')?.status).toBe('occupied');
      expect((await eventsOf(entry.id)).map((e) => e.type)).toEqual(['waitlist.added', 'waitlist.seated']);
    });

    it('a crash after the intent, before the booking, is rolled forward by reading the list', async () => {
      floor.add('T1', 4);
      const entry = await waitlist().add({ customerName: 'A', covers: 3 });
      const dying = waitlist({
        walkIns: {
          import: async () => {
            throw new Error('process killed');
          },
        },
      });
      await expect(dying.seat(entry.id, null)).rejects.toThrow('process killed');
      expect(await bookings().list({})).toHaveLength(0);
      // Anyone reading the queue finishes the seating.
      expect(await waitlist().list()).toEqual([]);
      expect((await waitlist().get(entry.id))?.state).toBe('seated');
      expect(await bookings().list({})).toHaveLength(1);
      expect(floor.byId.get('T1')?.status).toBe('occupied');
      // A notify meanwhile would have finished it too, then refused: seated is final.
      await expect(waitlist().notify(entry.id)).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    });

    it('concurrent siedi: both get the one seating, exactly one booking', async () => {
      floor.add('T1', 4);
      floor.add('T2', 4);
      const entry = await waitlist().add({ customerName: 'A', covers: 4 });
      const results = await Promise.allSettled([
        waitlist().seat(entry.id, null),
        waitlist().seat(entry.id, null),
        waitlist().seat(entry.id, null),
      ]);
      const seated = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
      expect(seated).toHaveLength(3);
      expect(new Set(seated.map((s) => s.prenotazioneId)).size).toBe(1);
      expect(new Set(seated.map((s) => s.tableIds.join())).size).toBe(1);
      expect(await bookings().list({})).toHaveLength(1);
      expect((await eventsOf(entry.id)).map((e) => e.type)).toEqual(['waitlist.added', 'waitlist.seated']);
    });
  });
});
