import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

/**
 * Table combinations and turn times through the REST facade (docs/seating.md): CRUD and its refusals, a
 * combination offered only while all its tables are free, a table booked as part of a combination not free on
 * its own, and the turn time of the party deciding the availability window.
 */
describe.each(MODES)('seating: combinations and turn times (%s mode)', (mode) => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(mode);
  });
  afterAll(async () => stack?.close());

  const newTenant = async () => {
    const tenantId = newTenantId();
    return { staff: await mintToken({ tenantId }), admin: await mintToken({ tenantId, admin: true }) };
  };
  const room = async (admin: string) => {
    const res = await stack.api('POST', '/api/sale', {
      token: admin,
      body: { codice: `S${Math.random().toString(36).slice(2, 7)}`, width: 1000, height: 600 },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const table = async (token: string, roomId: string, seats = 4) => {
    const res = await stack.api('POST', '/api/tavoli', {
      token,
      body: { name: `T${Math.random().toString(36).slice(2, 7)}`, seats, roomId },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const combine = async (admin: string, body: Record<string, unknown>) => {
    const res = await stack.api('POST', '/api/combinazioni', { token: admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; tableIds: string[] };
  };
  const check = async (token: string, body: Record<string, unknown>) => {
    const res = await stack.api('POST', '/api/tavoli/verifica-disponibilita', { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = (list: Array<{ id: string }>) => list.map((x) => x.id).sort();
    expect(res.body.combinazioniDisponibili).toEqual(res.body.availableCombinations);
    return {
      tables: ids(res.body.availableTables),
      combinations: ids(res.body.availableCombinations),
    };
  };
  const book = (
    token: string,
    tableIds: string[],
    bookingDate: string,
    durationMinutes: number,
    covers = 2,
  ) =>
    stack.api('POST', '/api/prenotazioni', {
      token,
      body: { covers, bookingDate, customerName: 'Seating', tableIds, durationMinutes },
    });

  it('creates, lists, reads, changes and deletes a combination; writes are for administrators', async () => {
    const { staff, admin } = await newTenant();
    const salaId = await room(admin);
    const [a, b] = [await table(admin, salaId), await table(admin, salaId)];
    const body = { nome: 'Finestra', name: 'Window', tableIds: [a, b], maxCovers: 7 };

    const refused = await stack.api('POST', '/api/combinazioni', { token: staff, body });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');

    const created = await stack.api('POST', '/api/combinazioni', { token: admin, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Window',
      nome: 'Window',
      tableIds: [a, b],
      salaId,
      roomId: salaId,
      minCovers: 1,
      capacitaMin: 1,
      maxCovers: 7,
      capacitaMax: 7,
      attivo: true,
    });
    const id = created.body.id as string;

    const list = await stack.api('GET', `/api/combinazioni?salaId=${salaId}&attivo=true`, { token: staff });
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await stack.api('GET', `/api/combinazioni/${id}`, { token: staff })).body.id).toBe(id);

    expect(
      (await stack.api('PATCH', `/api/combinazioni/${id}`, { token: staff, body: { maxCovers: 6 } })).status,
    ).toBe(403);
    const patched = await stack.api('PATCH', `/api/combinazioni/${id}`, {
      token: admin,
      body: { capacitaMax: 5, maxCovers: 6, minCovers: 3 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ maxCovers: 6, minCovers: 3 });

    expect((await stack.api('DELETE', `/api/combinazioni/${id}`, { token: staff })).status).toBe(403);
    const deleted = await stack.api('DELETE', `/api/combinazioni/${id}`, { token: admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, deleted: true });
    expect((await stack.api('GET', `/api/combinazioni/${id}`, { token: staff })).status).toBe(404);
  });

  it('refuses bad combinations with 400 naming the field, and other tenants’ ids with 404', async () => {
    const { admin } = await newTenant();
    const [sala1, sala2] = [await room(admin), await room(admin)];
    const [a, b, c] = [await table(admin, sala1), await table(admin, sala1), await table(admin, sala2)];
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ name: 'X', tableIds: [a, b], maxCovers: 9 }, 'maxCovers'], // two 4-tops: at most 8
      [{ name: 'X', tableIds: [a], maxCovers: 4 }, 'tableIds'],
      [{ name: 'X', tableIds: [a, a], maxCovers: 4 }, 'tableIds'],
      [{ name: 'X', tableIds: [a, c], maxCovers: 4 }, 'tableIds'], // two rooms
      [{ name: 'X', tableIds: [a, 'no-such-table'], maxCovers: 4 }, 'tableIds'],
      [{ name: 'X', tableIds: [a, b] }, 'maxCovers'],
      [{ name: 'X', tableIds: [a, b], minCovers: 6, maxCovers: 5 }, 'minCovers'],
      [{ tableIds: [a, b], maxCovers: 5 }, 'name'],
      [{ name: 'X', tableIds: [a, b], maxCovers: '5' }, 'maxCovers'],
    ];
    for (const [body, field] of refusals) {
      const res = await stack.api('POST', '/api/combinazioni', { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    }

    const mine = await combine(admin, { name: 'AB', tableIds: [a, b], maxCovers: 8 });
    const other = (await newTenant()).admin;
    expect((await stack.api('GET', `/api/combinazioni/${mine.id}`, { token: other })).status).toBe(404);
    const patch = await stack.api('PATCH', `/api/combinazioni/${mine.id}`, {
      token: other,
      body: { maxCovers: 5 },
    });
    expect(patch.status).toBe(404);
    expect((await stack.api('DELETE', `/api/combinazioni/${mine.id}`, { token: other })).status).toBe(404);
    expect((await stack.api('GET', '/api/combinazioni', { token: other })).body).toEqual([]);
  });

  it('offers a combination only while every table of it is free, and a table booked as part of one is not free', async () => {
    const { staff, admin } = await newTenant();
    const salaId = await room(admin);
    const [a, b, c, d] = [
      await table(admin, salaId),
      await table(admin, salaId),
      await table(admin, salaId),
      await table(admin, salaId),
    ];
    const ab = await combine(admin, { name: 'AB', tableIds: [a, b], minCovers: 5, maxCovers: 8 });
    const cd = await combine(admin, { name: 'CD', tableIds: [c, d], minCovers: 5, maxCovers: 8 });
    const at = { dataOra: '2027-10-01T20:00', numeroPersone: 6, durataMediaPasto: 120, salaId };
    expect(await check(staff, at)).toEqual({ tables: [], combinations: [ab.id, cd.id].sort() });

    // One table of CD booked for a party of two overlapping the window: CD is no longer offered.
    expect((await book(staff, [d], '2027-10-01T21:00', 90)).status).toBe(201);
    expect((await check(staff, at)).combinations).toEqual([ab.id]);

    // A party of six booked on AB's tables: neither table is free for a party of two, and AB is not offered.
    expect((await book(staff, ab.tableIds, '2027-10-01T19:30', 120, 6)).status).toBe(201);
    expect((await check(staff, at)).combinations).toEqual([]);
    const couple = await check(staff, { ...at, numeroPersone: 2 });
    expect(couple.tables).toEqual([c]);
    const clash = await book(staff, [a], '2027-10-01T20:00', 60);
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('TABLE_UNAVAILABLE');

    // Deleting a table deactivates a combination left with one table.
    const e = await table(admin, salaId);
    const f = await table(admin, salaId);
    const ef = await combine(admin, { name: 'EF', tableIds: [e, f], maxCovers: 8 });
    expect((await stack.api('DELETE', `/api/tavoli/${f}`, { token: admin })).status).toBe(200);
    const after = await stack.api('GET', `/api/combinazioni/${ef.id}`, { token: staff });
    expect(after.body).toMatchObject({ tableIds: [e], attivo: false });
  });

  it('sizes the availability window by the turn time of the party (capacity turnTimes)', async () => {
    const { staff, admin } = await newTenant();
    const refused = await stack.api('PUT', '/api/capacity/config', {
      token: admin,
      body: {
        turnTimes: [
          { maxCovers: 4, minutes: 90 },
          { maxCovers: 2, minutes: 60 },
        ],
      },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error.details)).toContain('turnTimes.1.maxCovers');
    const bad = await stack.api('PUT', '/api/capacity/config', {
      token: admin,
      body: { turnTimes: [{ maxCovers: 2, minutes: 10 }], reseatFreezeMinutes: 2000 },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error.details)).toContain('turnTimes.0.minutes');
    expect(JSON.stringify(bad.body.error.details)).toContain('reseatFreezeMinutes');
    expect(
      (await stack.api('PUT', '/api/capacity/config', { token: staff, body: { turnTimes: [] } })).status,
    ).toBe(403);

    const defaults = await stack.api('GET', '/api/capacity/config', { token: staff });
    expect(defaults.body).toMatchObject({ turnTimes: [], reseat: true, reseatFreezeMinutes: 60 });
    const turnTimes = [
      { maxCovers: 2, minutes: 75 },
      { maxCovers: 6, minutes: 150 },
    ];
    const saved = await stack.api('PUT', '/api/capacity/config', {
      token: admin,
      body: { turnTimes, reseat: false, reseatFreezeMinutes: 30 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ turnTimes, reseat: false, reseatFreezeMinutes: 30 });
    expect((await stack.api('GET', '/api/capacity/config', { token: staff })).body.turnTimes).toEqual(
      turnTimes,
    );

    const salaId = await room(admin);
    const t = await table(admin, salaId, 8);
    // Booked from 21:15; a check at 20:00 is free for a window shorter than 75 minutes only.
    expect((await book(staff, [t], '2027-11-01T21:15', 60)).status).toBe(201);
    const free = async (numeroPersone: number) =>
      (await check(staff, { dataOra: '2027-11-01T20:00', numeroPersone, salaId })).tables.includes(t);
    expect(await free(2)).toBe(true); // 75 minutes: 20:00–21:15 touches the booking
    expect(await free(3)).toBe(false); // 150 minutes
    expect(await free(8)).toBe(false); // beyond the last row: 150 minutes
  });
});
