import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { importedId } from '../src/bookings/prenotazione-record.js';
import { PrenotazioneStore } from '../src/bookings/prenotazione-store.js';
import { createPrenotazioneServices } from '../src/context.js';
import { TableAgendaStore } from '../src/seating/table-agenda-store.js';
import { seatingWorld, noSubgraphCalls, worldSources } from './seating-fixture.js';

/** Effective durations, table holds, their pruning and the window query, on the embedded store. */
describe('table holds', () => {
  let dir: string;
  let store: DocumentStore;
  let clock: number;
  let mealMinutes: number;
  let tenant = 0;
  let viewer: Viewer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prenotazione-holds-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    clock = Date.parse('2027-01-10T10:00:00Z');
    mealMinutes = 120;
    viewer = {
      tenantId: trustedTenantId(`t_holds_${++tenant}`),
      subject: null,
      roles: [],
      isAdmin: false,
      token: 'x',
    };
  });

  const tenantStore = () => store.forTenant(viewer.tenantId);
  const services = (overrides: { store?: PrenotazioneStore; agenda?: TableAgendaStore } = {}) =>
    createPrenotazioneServices({
      tenantStore: tenantStore(),
      stores: { bookings: overrides.store, agenda: overrides.agenda },
      viewer,
      subgraphs: noSubgraphCalls,
      timeZone: 'Europe/Rome',
      now: () => new Date(clock),
      seating: {
        ...worldSources(seatingWorld()),
        config: async () => ({ ...seatingWorld().config, defaultMealMinutes: mealMinutes }),
      },
      onEventsWritten: () => {},
    });
  const service = (overrides: { store?: PrenotazioneStore; agenda?: TableAgendaStore } = {}) =>
    services(overrides).prenotazioni;
  const booking = (table: string, bookingDate: string, durationMinutes?: number) => ({
    covers: 2,
    bookingDate,
    customerName: 'Holds',
    tableIds: [table],
    ...(durationMinutes ? { durationMinutes } : {}),
  });
  const holdsOf = (table: string) => new TableAgendaStore(tenantStore()).entries(table);

  it("stores the tenant's default meal duration as the effective duration and the guard uses it", async () => {
    mealMinutes = 90;
    const first = await service().create(booking('T1', '2027-02-01T20:00'));
    expect(first.effectiveDurationMinutes).toBe(90);
    await expect(service().create(booking('T1', '2027-02-01T21:00', 60))).rejects.toMatchObject({
      code: 'TABLE_UNAVAILABLE',
    });
    // 20:00 + 90 min touches 21:30: free
    const second = await service().create(booking('T1', '2027-02-01T21:30', 60));
    expect(second.effectiveDurationMinutes).toBe(60);
    // the default changing later does not change what the existing booking holds
    mealMinutes = 240;
    const holds = await services().agenda.holdsInWindow({
      from: '2027-02-01T18:00:00Z',
      to: '2027-02-01T23:00:00Z',
      tableIds: ['T1'],
    });
    expect(holds.map((h) => [h.startsAt, h.endsAt])).toEqual([
      ['2027-02-01T19:00:00.000Z', '2027-02-01T20:30:00.000Z'],
      ['2027-02-01T20:30:00.000Z', '2027-02-01T21:30:00.000Z'],
    ]);
  });

  it('a move fixes the effective duration anew', async () => {
    const created = await service().create(booking('T2', '2027-02-01T20:00'));
    mealMinutes = 60;
    const moved = await service().update(created.id, { bookingDate: '2027-02-01T19:00' });
    expect(moved.effectiveDurationMinutes).toBe(60);
    expect((await service().create(booking('T2', '2027-02-01T20:00'))).tableIds).toEqual(['T2']);
  });

  it('a replace that fails after the claim leaves no hold behind', async () => {
    const created = await service().create(booking('T3', '2027-02-01T20:00'));
    const failing = new PrenotazioneStore(tenantStore());
    failing.replace = async () => {
      throw new Error('store down');
    };
    await expect(
      service({ store: failing }).update(created.id, { bookingDate: '2027-02-01T13:00' }),
    ).rejects.toThrow('store down');
    expect((await holdsOf('T3')).map((h) => h.start)).toEqual(['2027-02-01T19:00:00.000Z']);
    // the lunch time the failed move claimed is free at once
    expect((await service().create(booking('T3', '2027-02-01T13:00'))).tableIds).toEqual(['T3']);
  });

  it('a concurrent import of the same externalId on other tables leaves no phantom hold', async () => {
    const first = await service().import({ ...booking('T4', '2027-02-01T20:00'), externalId: 'pos-1' });
    expect(first.status).toBe('created');
    // the second import looked before the first was stored (the race): it claims T5, then collides on the id
    const racing = new PrenotazioneStore(tenantStore());
    let looks = 0;
    const realFind = racing.findById.bind(racing);
    racing.findById = async (id) => (looks++ === 0 ? null : realFind(id));
    const second = await service({ store: racing }).import({
      ...booking('T5', '2027-02-01T20:00'),
      externalId: 'pos-1',
    });
    expect(second).toMatchObject({
      status: 'duplicate',
      record: { id: importedId('pos-1'), tableIds: ['T4'] },
    });
    expect(await holdsOf('T5')).toEqual([]);
    expect((await holdsOf('T4')).map((h) => h.bookingId)).toEqual([importedId('pos-1')]);
    expect((await service().create(booking('T5', '2027-02-01T20:00'))).tableIds).toEqual(['T5']);
  });

  it('prunes holds that ended long ago and holds of bookings no longer active when an agenda is touched', async () => {
    const cancelled = await service().create(booking('T6', '2027-02-01T13:00'));
    const stuck = new TableAgendaStore(tenantStore());
    stuck.release = async () => {
      throw new Error('process killed'); // the cancellation does not free its hold
    };
    await service({ agenda: stuck }).changeState(cancelled.id, 'annullata');
    expect((await holdsOf('T6')).map((h) => h.bookingId)).toEqual([cancelled.id]);
    // touching the agenda drops the cancelled booking's hold
    const past = await service().create(booking('T6', '2027-01-05T20:00'));
    expect((await holdsOf('T6')).map((h) => h.bookingId)).toEqual([past.id]);
    // and, later, the hold that ended more than a day ago
    const next = await service().create(booking('T6', '2027-02-02T20:00'));
    expect((await holdsOf('T6')).map((h) => h.bookingId)).toEqual([next.id]);
  });

  it('answers the window query from the agendas of the asked tables, reading only the overlapping bookings', async () => {
    for (let t = 0; t < 20; t++) {
      for (const time of ['12:00', '14:00', '19:00', '21:00', '23:00']) {
        await service().create(booking(`W${t}`, `2027-02-01T${time}`, 60));
      }
    }
    const counted = new PrenotazioneStore(tenantStore());
    const agenda = new TableAgendaStore(tenantStore());
    const read: string[] = [];
    const realFindByIds = counted.findByIds.bind(counted);
    counted.findByIds = async (ids) => {
      const found = await realFindByIds(ids);
      read.push(...found.map((b) => b.bookingDate));
      return found;
    };
    counted.list = async () => {
      throw new Error('the window query must not list the day');
    };
    const realAgendas = agenda.agendas.bind(agenda);
    const agendasRead: string[] = [];
    agenda.agendas = async (ids) => {
      const found = await realAgendas(ids);
      agendasRead.push(...found.map((a) => a.id));
      return found;
    };
    // 20:30–21:30 local: overlaps 21:00 on W0..W4 only (touching 20:00-ends do not count)
    const holds = await services({ store: counted, agenda }).agenda.holdsInWindow({
      from: '2027-02-01T20:30:00+01:00',
      to: '2027-02-01T21:30:00+01:00',
      tableIds: ['W0', 'W1', 'W2', 'W3', 'W4'],
    });
    expect(holds.map((h) => h.tableId)).toEqual(['W0', 'W1', 'W2', 'W3', 'W4']);
    expect(agendasRead.sort()).toEqual(['W0', 'W1', 'W2', 'W3', 'W4']);
    expect(read).toEqual(Array(5).fill('2027-02-01T21:00:00'));
  });

  it('refuses a window query without instants', async () => {
    await expect(
      services().agenda.holdsInWindow({ from: '2027-02-01T20:00', to: '2027-02-01T21:00:00Z', tableIds: [] }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
