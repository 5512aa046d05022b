import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import { openEmbeddedStore, StoreUnavailableError, type DocumentStore } from '@coperto/store';
import { PrenotazioneStore } from '../src/bookings/prenotazione-store.js';
import { createPrenotazioneServices } from '../src/context.js';
import { TableAgendaStore } from '../src/seating/table-agenda-store.js';
import { seatingWorld, noSubgraphCalls, worldSources } from './seating-fixture.js';

/**
 * What a crash leaves behind, simulated at the exact points where a process could die between two writes:
 * the next requests (on another instance, later) must neither lose a booking nor keep a table blocked.
 */
describe('a crash never leaves half a booking', () => {
  let dir: string;
  let store: DocumentStore;
  let clock: number;
  const viewer: Viewer = {
    tenantId: trustedTenantId('t_crash'),
    subject: null,
    roles: [],
    isAdmin: false,
    token: 'x',
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prenotazione-crash-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
    clock = Date.parse('2027-01-10T10:00:00Z');
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const service = (overrides: { store?: PrenotazioneStore; agenda?: TableAgendaStore } = {}) =>
    createPrenotazioneServices({
      tenantStore: store.forTenant(viewer.tenantId),
      stores: { bookings: overrides.store, agenda: overrides.agenda },
      viewer,
      subgraphs: noSubgraphCalls,
      timeZone: 'Europe/Rome',
      now: () => new Date(clock),
      seating: {
        ...worldSources(seatingWorld()),
        config: async () => ({ ...seatingWorld().config, defaultMealMinutes: 120 }),
      },
      onEventsWritten: () => {},
    }).prenotazioni;
  const booking = (table: string, bookingDate = '2027-02-01T20:00') => ({
    covers: 2,
    bookingDate,
    customerName: 'Crash',
    tableIds: [table],
  });

  it('dies between claiming the table and storing the booking: nothing is booked, the claim is repaired', async () => {
    const tenantStore = store.forTenant(viewer.tenantId);
    const dying = new PrenotazioneStore(tenantStore);
    dying.insert = async () => {
      throw new Error('process killed');
    };
    const deadAgenda = new TableAgendaStore(tenantStore);
    deadAgenda.removeEntry = async () => {
      throw new Error('process killed'); // a dead process cleans nothing up
    };
    await expect(service({ store: dying, agenda: deadAgenda }).create(booking('T1'))).rejects.toThrow(
      'process killed',
    );
    expect(await service().list({})).toEqual([]);
    // A claim with no booking could belong to a create still in flight: shortly after, it still holds …
    await expect(service().create(booking('T1'))).rejects.toMatchObject({ code: 'TABLE_UNAVAILABLE' });
    // … and once it is clearly orphaned it gives way.
    clock += 31_000;
    const created = await service().create(booking('T1'));
    expect(created.tableIds).toEqual(['T1']);
    await expect(service().create(booking('T1', '2027-02-01T21:00'))).rejects.toMatchObject({
      code: 'TABLE_UNAVAILABLE',
    });
  });

  it('dies between cancelling and freeing the table: the cancellation stands and the table is free', async () => {
    const first = await service().create(booking('T2'));
    const tenantStore = store.forTenant(viewer.tenantId);
    const stuck = new TableAgendaStore(tenantStore);
    stuck.release = async () => {
      throw new Error('process killed');
    };
    const cancelled = await service({ agenda: stuck }).changeState(first.id, 'annullata', 'crash');
    expect(cancelled.state).toBe('annullata');
    expect((await service().get(first.id))?.state).toBe('annullata');
    const second = await service().create(booking('T2'));
    expect(second.id).not.toBe(first.id);
  });

  it('dies between moving a booking and freeing its old time: the move stands, the old time is free', async () => {
    const moved = await service().create(booking('T3', '2027-03-01T20:00'));
    const tenantStore = store.forTenant(viewer.tenantId);
    const stuck = new TableAgendaStore(tenantStore);
    stuck.release = async () => {
      throw new Error('process killed');
    };
    await service({ agenda: stuck }).update(moved.id, { bookingDate: '2027-03-01T13:00' });
    expect((await service().get(moved.id))?.bookingDate).toBe('2027-03-01T13:00:00');
    expect((await service().create(booking('T3', '2027-03-01T20:00'))).tableIds).toEqual(['T3']);
    await expect(service().create(booking('T3', '2027-03-01T13:30'))).rejects.toMatchObject({
      code: 'TABLE_UNAVAILABLE',
    });
  });

  it('stores the created event in the same write as the booking', async () => {
    const created = await service().create(booking('T4'));
    const pending = await store.outbox(['prenotazioni']).claimPending(100, 1000);
    const mine = pending.find((p) => p.id === created.id);
    expect(mine?.messages.map((m) => (m.body as { type: string }).type)).toEqual(['bookings.created']);
  });

  describe('a write whose answer is lost (the store applied it, then stopped answering)', () => {
    const lostAnswer = () => new StoreUnavailableError({ cause: new Error('connection closed') });

    it('keeps the claim of a booking stored without an answer, so its table is not booked twice (torture run FC_SEED=1124453370, 2026-11-25: MongoDB killed after applying the insert; the claim was released once it came back, and a move took the table)', async () => {
      const tenantStore = store.forTenant(viewer.tenantId);
      const applied = new PrenotazioneStore(tenantStore);
      const insert = applied.insert.bind(applied);
      applied.insert = async (...args) => {
        await insert(...args);
        throw lostAnswer();
      };
      await expect(service({ store: applied }).create(booking('T5'))).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      const [stored] = (await service().list({})).filter((b) => b.tableIds.includes('T5'));
      expect(stored?.state).toBe('pending');
      await expect(service().create(booking('T5', '2027-02-01T21:00'))).rejects.toMatchObject({
        code: 'TABLE_UNAVAILABLE',
      });
      // Its holds are the booking's own: they stay live, not only for the 30 s of a write in flight.
      clock += 31_000;
      await expect(service().create(booking('T5', '2027-02-01T21:00'))).rejects.toMatchObject({
        code: 'TABLE_UNAVAILABLE',
      });
    });

    it('keeps the new claim of a move stored without an answer', async () => {
      const moving = await service().create(booking('T6', '2027-04-01T13:00'));
      const tenantStore = store.forTenant(viewer.tenantId);
      const applied = new PrenotazioneStore(tenantStore);
      const replace = applied.replace.bind(applied);
      applied.replace = async (...args) => {
        await replace(...args);
        throw lostAnswer();
      };
      await expect(
        service({ store: applied }).update(moving.id, { bookingDate: '2027-04-01T20:00' }),
      ).rejects.toBeInstanceOf(StoreUnavailableError);
      expect((await service().get(moving.id))?.bookingDate).toBe('2027-04-01T20:00:00');
      await expect(service().create(booking('T6', '2027-04-01T20:30'))).rejects.toMatchObject({
        code: 'TABLE_UNAVAILABLE',
      });
    });

    it('still frees the claim at once when the store refused the write (it did not happen)', async () => {
      const tenantStore = store.forTenant(viewer.tenantId);
      const refusing = new PrenotazioneStore(tenantStore);
      refusing.insert = async () => {
        throw new Error('refused by the store');
      };
      await expect(service({ store: refusing }).create(booking('T7'))).rejects.toThrow(
        'refused by the store',
      );
      expect((await service().create(booking('T7'))).tableIds).toEqual(['T7']);
    });
  });
});
