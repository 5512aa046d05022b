import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const CODICE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(MODES)('bookings (%s mode)', (mode) => {
  let stack: Stack;
  let tenant: string;
  let token: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
  });
  afterAll(async () => stack?.close());

  const book = (body: Record<string, unknown>, as = token) =>
    stack.api('POST', '/api/prenotazioni', { token: as, body });
  const table = async (seats = 4, as = token, extra: Record<string, unknown> = {}) =>
    (
      await stack.api('POST', '/api/tavoli', {
        token: as,
        body: { name: `T${Math.random()}`, seats, ...extra },
      })
    ).body;
  const valid = { covers: 2, bookingDate: '2027-01-15T20:00', customerName: 'Rossi' };

  describe('creation', () => {
    it('creates from English names with a 6-character codice, state pending and both name forms stored', async () => {
      const events = stack.events(`tenant.${tenant}.restaurant.bookings.created`);
      try {
        const res = await book({
          ...valid,
          customerPhone: '+39 333 1234567',
          customerEmail: ' Rossi@Example.com ',
          language: 'en',
          notes: 'allergia noci',
          durationMinutes: 90,
        });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({
          covers: 2,
          numeroPersone: 2,
          bookingDate: '2027-01-15T20:00:00',
          dataOra: '2027-01-15T20:00:00',
          startsAt: '2027-01-15T19:00:00.000Z',
          customerName: 'Rossi',
          cliente: 'Rossi',
          customerPhone: '+39 333 1234567',
          customerEmail: 'rossi@example.com',
          lingua: 'en',
          language: 'en',
          notes: 'allergia noci',
          durationMinutes: 90,
          state: 'pending',
          tableIds: [],
        });
        expect(res.body.codice).toMatch(CODICE);
        expect(res.body.createdAt).toEqual(res.body.updatedAt);
        const [event] = (await events.waitFor(1)).filter((e) => e.subject === res.body.id);
        expect(event).toMatchObject({
          type: 'bookings.created',
          tenantid: tenant,
          data: {
            id: res.body.id,
            codice: res.body.codice,
            customerEmail: 'rossi@example.com',
            lingua: 'en',
            language: 'en',
          },
        });
      } finally {
        events.stop();
      }
    });

    it('accepts the Italian names, and lets English win when both are sent', async () => {
      const italian = await book({ numeroPersone: 5, dataOra: '2027-01-15T13:30:00', cliente: 'Verdi' });
      expect(italian.status).toBe(201);
      expect(italian.body).toMatchObject({
        covers: 5,
        numeroPersone: 5,
        customerName: 'Verdi',
        cliente: 'Verdi',
        customerEmail: null,
        lingua: 'it',
        language: 'it',
      });
      const both = await book({
        covers: 3,
        numeroPersone: 9,
        bookingDate: '2027-01-16T21:00',
        dataOra: '2027-01-16T12:00',
        customerName: 'English',
        cliente: 'Italiano',
        language: 'en',
        lingua: 'it',
      });
      expect(both.body).toMatchObject({
        covers: 3,
        numeroPersone: 3,
        bookingDate: '2027-01-16T21:00:00',
        dataOra: '2027-01-16T21:00:00',
        customerName: 'English',
        cliente: 'English',
        lingua: 'en',
        language: 'en',
      });
    });

    it("refuses a guest's email that is not one or too long and a language other than it or en, naming the field", async () => {
      const fieldsOf = (res: { body: { error: { details: { fields: Array<{ field: string }> } } } }) =>
        res.body.error.details.fields.map((f) => f.field);
      for (const [body, field] of [
        [{ customerEmail: 'rossi.example.com' }, 'customerEmail'],
        [{ customerEmail: `${'r'.repeat(250)}@example.com` }, 'customerEmail'],
        [{ lingua: 'fr' }, 'lingua'],
        [{ language: 'de' }, 'language'],
      ] as const) {
        const res = await book({ ...valid, ...body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(fieldsOf(res)).toContain(field);
      }
    });

    it('reads a date without zone as restaurant time and converts an explicit offset', async () => {
      const summer = await book({ ...valid, bookingDate: '2027-07-15T20:00' });
      expect(summer.body.startsAt).toBe('2027-07-15T18:00:00.000Z');
      const zulu = await book({ ...valid, bookingDate: '2027-07-15T18:00:00Z' });
      expect(zulu.body).toMatchObject({
        bookingDate: '2027-07-15T20:00:00',
        startsAt: '2027-07-15T18:00:00.000Z',
      });
    });

    it('gives every booking its own codice', async () => {
      const created = await Promise.all(Array.from({ length: 30 }, () => book(valid)));
      const codes = created.map((r) => r.body.codice as string);
      expect(codes.every((c) => CODICE.test(c))).toBe(true);
      expect(new Set(codes).size).toBe(30);
    });

    it.each([
      [{ bookingDate: '2027-01-15T20:00', customerName: 'x' }, 'covers'],
      [{ ...valid, covers: 0 }, 'covers'],
      [{ ...valid, covers: 1001 }, 'covers'],
      [{ ...valid, covers: '2' }, 'covers'],
      [{ covers: 2, customerName: 'x' }, 'bookingDate'],
      [{ ...valid, bookingDate: 'tomorrow at eight' }, 'bookingDate'],
      [{ ...valid, bookingDate: '2027-02-30T20:00' }, 'bookingDate'],
      [{ covers: 2, bookingDate: '2027-01-15T20:00' }, 'customerName'],
      [{ ...valid, customerName: '' }, 'customerName'],
      [{ ...valid, customerName: 'x'.repeat(201) }, 'customerName'],
      [{ ...valid, notes: 'x'.repeat(2001) }, 'notes'],
      [{ ...valid, state: 'booked' }, 'state'],
      [{ ...valid, tableIds: ['no-such-table'] }, 'tableIds'],
      [{ ...valid, tableIds: 'T1' }, 'tableIds'],
      [{ ...valid, durationMinutes: 0 }, 'durationMinutes'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await book(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    });

    it('refuses tables of another tenant as unknown', async () => {
      const foreignTable = await table(4, await mintToken({ tenantId: newTenantId() }));
      const res = await book({ ...valid, tableIds: [foreignTable.id] });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.error.details)).toContain('tableIds');
    });
  });

  describe('state flow', () => {
    it('confirms, cancels with a reason, and publishes updated and cancelled', async () => {
      const updated = stack.events(`tenant.${tenant}.restaurant.bookings.updated`);
      const cancelled = stack.events(`tenant.${tenant}.restaurant.bookings.cancelled`);
      try {
        const p = (await book(valid)).body;
        const confirmed = await stack.api('POST', `/api/prenotazioni/${p.id}/conferma`, { token });
        expect(confirmed.status).toBe(200);
        expect(confirmed.body.state).toBe('confermata');
        const again = await stack.api('POST', `/api/prenotazioni/${p.id}/conferma`, { token });
        expect(again.body.updatedAt).toBe(confirmed.body.updatedAt);
        const annulled = await stack.api('POST', `/api/prenotazioni/${p.id}/annulla`, {
          token,
          body: { motivo: 'pioggia' },
        });
        expect(annulled.body).toMatchObject({ state: 'annullata', motivo: 'pioggia' });
        expect(annulled.body.cancelledAt).toEqual(expect.any(String));
        const twice = await stack.api('POST', `/api/prenotazioni/${p.id}/annulla`, {
          token,
          body: { motivo: 'altro' },
        });
        expect(twice.status).toBe(200);
        expect(twice.body.motivo).toBe('pioggia');
        // a later booking's events prove delivery is running: exactly one of each for p
        const q = (await book(valid)).body;
        await stack.api('POST', `/api/prenotazioni/${q.id}/annulla`, { token });
        await stack.api('POST', `/api/prenotazioni/${q.id}/stato`, {
          token,
          body: { nuovoStato: 'confermata' },
        });
        await cancelled.waitFor(2);
        await updated.waitFor(1);
        expect(
          updated.received.filter((e) => e.subject === p.id).map((e) => (e.data as { state: string }).state),
        ).toEqual(['confermata']);
        expect(cancelled.received.filter((e) => e.subject === p.id)).toHaveLength(1);
        expect(cancelled.received.find((e) => e.subject === p.id)?.data).toMatchObject({ motivo: 'pioggia' });
      } finally {
        updated.stop();
        cancelled.stop();
      }
    });

    const allowed: Record<string, string[]> = {
      pending: ['confermata', 'caparra_pagata', 'annullata'],
      confermata: ['caparra_pagata', 'completata', 'annullata', 'no_show'],
      caparra_pagata: ['completata', 'annullata', 'no_show'],
      completata: [],
      annullata: [],
      no_show: [],
    };
    const states = Object.keys(allowed);
    const pathTo: Record<string, string[]> = {
      pending: [],
      confermata: ['confermata'],
      caparra_pagata: ['caparra_pagata'],
      completata: ['confermata', 'completata'],
      annullata: ['annullata'],
      no_show: ['confermata', 'no_show'],
    };
    const cases = states.flatMap((from) =>
      states.filter((to) => to !== from).map((to) => [from, to] as const),
    );

    it.each(cases)('moves from %s to %s only when the transition table allows it', async (from, to) => {
      const p = (await book(valid)).body;
      for (const step of pathTo[from]!) {
        expect(
          (await stack.api('POST', `/api/prenotazioni/${p.id}/stato`, { token, body: { nuovoStato: step } }))
            .status,
        ).toBe(200);
      }
      const res = await stack.api('POST', `/api/prenotazioni/${p.id}/stato`, {
        token,
        body: { nuovoStato: to },
      });
      if (allowed[from]!.includes(to)) {
        expect(res.status).toBe(200);
        expect(res.body.state).toBe(to);
      } else {
        expect(res.status).toBe(409);
        expect(res.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from, to } });
      }
    });

    it('refuses an unknown nuovoStato with 400 and a foreign booking with 404', async () => {
      const p = (await book(valid)).body;
      const bad = await stack.api('POST', `/api/prenotazioni/${p.id}/stato`, {
        token,
        body: { nuovoStato: 'eaten' },
      });
      expect(bad.status).toBe(400);
      const other = await mintToken({ tenantId: newTenantId() });
      for (const [path, body] of [
        [`/api/prenotazioni/${p.id}/conferma`, undefined],
        [`/api/prenotazioni/${p.id}/annulla`, { motivo: 'x' }],
        [`/api/prenotazioni/${p.id}/stato`, { nuovoStato: 'annullata' }],
      ] as const) {
        expect((await stack.api('POST', path, { token: other, body })).status, path).toBe(404);
      }
      expect((await stack.api('GET', `/api/prenotazioni/${p.id}`, { token: other })).status).toBe(404);
      expect(
        (await stack.api('PATCH', `/api/prenotazioni/${p.id}`, { token: other, body: { notes: 'x' } }))
          .status,
      ).toBe(404);
      expect((await stack.api('GET', `/api/prenotazioni/${p.id}`, { token })).body.state).toBe('pending');
    });
  });

  describe('no double booking', () => {
    it('refuses an overlapping booking of the same table, allows touching ends and other tables', async () => {
      const t = await table();
      const u = await table();
      expect((await book({ ...valid, bookingDate: '2027-02-01T20:00', tableIds: [t.id] })).status).toBe(201);
      const overlap = await book({ ...valid, bookingDate: '2027-02-01T21:59', tableIds: [t.id] });
      expect(overlap.status).toBe(409);
      expect(overlap.body.error).toMatchObject({ code: 'TABLE_UNAVAILABLE', details: { tableIds: [t.id] } });
      const multi = await book({ ...valid, bookingDate: '2027-02-01T21:00', tableIds: [u.id, t.id] });
      expect(multi.status).toBe(409);
      expect((await book({ ...valid, bookingDate: '2027-02-01T21:00', tableIds: [u.id] })).status).toBe(201);
      expect((await book({ ...valid, bookingDate: '2027-02-01T22:00', tableIds: [t.id] })).status).toBe(201);
      expect(
        (await book({ ...valid, bookingDate: '2027-02-01T18:30', durationMinutes: 90, tableIds: [t.id] }))
          .status,
      ).toBe(201);
    });

    it('frees the table when a booking is cancelled, completed or moved', async () => {
      const t = await table();
      const first = (await book({ ...valid, bookingDate: '2027-02-02T20:00', tableIds: [t.id] })).body;
      expect((await book({ ...valid, bookingDate: '2027-02-02T20:30', tableIds: [t.id] })).status).toBe(409);
      await stack.api('POST', `/api/prenotazioni/${first.id}/annulla`, { token, body: { motivo: 'cambio' } });
      const second = await book({ ...valid, bookingDate: '2027-02-02T20:30', tableIds: [t.id] });
      expect(second.status).toBe(201);
      const moved = await stack.api('PATCH', `/api/prenotazioni/${second.body.id}`, {
        token,
        body: { bookingDate: '2027-02-02T13:00' },
      });
      expect(moved.status).toBe(200);
      expect(moved.body.bookingDate).toBe('2027-02-02T13:00:00');
      expect((await book({ ...valid, bookingDate: '2027-02-02T20:30', tableIds: [t.id] })).status).toBe(201);
      expect((await book({ ...valid, bookingDate: '2027-02-02T13:30', tableIds: [t.id] })).status).toBe(409);
    });

    it('refuses a change that would overlap another booking and keeps the booking as it was', async () => {
      const t = await table();
      await book({ ...valid, bookingDate: '2027-02-03T20:00', tableIds: [t.id] });
      const other = (await book({ ...valid, bookingDate: '2027-02-03T13:00', tableIds: [t.id] })).body;
      const clash = await stack.api('PATCH', `/api/prenotazioni/${other.id}`, {
        token,
        body: { dataOra: '2027-02-03T19:00' },
      });
      expect(clash.status).toBe(409);
      expect((await stack.api('GET', `/api/prenotazioni/${other.id}`, { token })).body.bookingDate).toBe(
        '2027-02-03T13:00:00',
      );
      expect((await book({ ...valid, bookingDate: '2027-02-03T13:30', tableIds: [t.id] })).status).toBe(409);
    });

    it('lets exactly one of 20 racing requests book the same table and slot', async () => {
      const t = await table();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          book({ ...valid, customerName: `Racer ${i}`, bookingDate: '2027-02-04T20:00', tableIds: [t.id] }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(19);
      const list = await stack.api('GET', `/api/prenotazioni?tableId=${t.id}`, { token });
      expect(list.body).toHaveLength(1);
    });

    it('keeps tenants apart: the same table id space never blocks another tenant', async () => {
      const otherToken = await mintToken({ tenantId: newTenantId() });
      const mine = await table();
      const theirs = await table(4, otherToken);
      expect((await book({ ...valid, bookingDate: '2027-02-05T20:00', tableIds: [mine.id] })).status).toBe(
        201,
      );
      expect(
        (await book({ ...valid, bookingDate: '2027-02-05T20:00', tableIds: [theirs.id] }, otherToken)).status,
      ).toBe(201);
    });
  });

  describe('reading', () => {
    it('reads one, lists with dal/al, state and tableId filters, and never shows another tenant', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const t = await table(4, own);
      const a = (await book({ ...valid, bookingDate: '2027-03-01T20:00', tableIds: [t.id] }, own)).body;
      const b = (await book({ ...valid, bookingDate: '2027-03-02T20:00' }, own)).body;
      const c = (await book({ ...valid, bookingDate: '2027-03-03T20:00' }, own)).body;
      await stack.api('POST', `/api/prenotazioni/${c.id}/annulla`, { token: own });
      const ids = async (query: string) =>
        (await stack.api('GET', `/api/prenotazioni${query}`, { token: own })).body.map(
          (p: { id: string }) => p.id,
        );
      expect(await ids('')).toEqual([a.id, b.id, c.id]);
      expect(await ids('?dal=2027-03-02')).toEqual([b.id, c.id]);
      expect(await ids('?dal=2027-03-01&al=2027-03-02')).toEqual([a.id, b.id]);
      expect(await ids('?state=annullata')).toEqual([c.id]);
      expect(await ids(`?tableId=${t.id}`)).toEqual([a.id]);
      expect((await stack.api('GET', '/api/prenotazioni?dal=2027-3-1', { token: own })).status).toBe(400);
      expect((await stack.api('GET', '/api/prenotazioni?state=eaten', { token: own })).status).toBe(400);
      expect((await stack.api('GET', `/api/prenotazioni/${a.id}`, { token: own })).body.codice).toBe(
        a.codice,
      );
      expect(
        (await stack.api('GET', '/api/prenotazioni', { token })).body.map((p: { id: string }) => p.id),
      ).not.toContain(a.id);
    });

    it('updates the fields it is given, in either name form, and refuses bad values', async () => {
      const p = (await book(valid)).body;
      const res = await stack.api('PATCH', `/api/prenotazioni/${p.id}`, {
        token,
        body: { numeroPersone: 6, notes: 'compleanno', customerEmail: 'verdi@example.com', lingua: 'en' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        covers: 6,
        numeroPersone: 6,
        notes: 'compleanno',
        customerName: 'Rossi',
        customerEmail: 'verdi@example.com',
        language: 'en',
      });
      expect(res.body.updatedAt > p.updatedAt).toBe(true);
      expect(
        (await stack.api('PATCH', `/api/prenotazioni/${p.id}`, { token, body: { covers: 0 } })).status,
      ).toBe(400);
      expect(
        (await stack.api('PATCH', `/api/prenotazioni/nope`, { token, body: { covers: 2 } })).status,
      ).toBe(404);
    });
  });

  describe('delta sync', () => {
    it('pages through changes without skipping or repeating, also with writes between pages', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const since = new Date(Date.now() - 1000).toISOString();
      const first = await Promise.all(
        Array.from({ length: 25 }, (_, i) => book({ ...valid, customerName: `A${i}` }, own)),
      );
      await wait(1100);
      const seen: string[] = [];
      let modifiedSince = since;
      let pages = 0;
      let wroteBetween = false;
      for (;;) {
        const page = await stack.api(
          'GET',
          `/api/prenotazioni/sync?modifiedSince=${encodeURIComponent(modifiedSince)}&limit=7`,
          {
            token: own,
          },
        );
        expect(page.status).toBe(200);
        seen.push(...page.body.items.map((p: { id: string; updatedAt: string }) => `${p.id}@${p.updatedAt}`));
        modifiedSince = page.body.serverTime;
        pages++;
        if (!wroteBetween) {
          wroteBetween = true;
          // a new booking and a change to one already seen, written between pages
          await book({ ...valid, customerName: 'Late' }, own);
          await stack.api('POST', `/api/prenotazioni/${first[0]!.body.id}/conferma`, { token: own });
          await wait(1100);
        }
        if (!page.body.hasMore) break;
        expect(pages).toBeLessThan(20);
      }
      const again = await stack.api(
        'GET',
        `/api/prenotazioni/sync?modifiedSince=${encodeURIComponent(modifiedSince)}`,
        { token: own },
      );
      seen.push(...again.body.items.map((p: { id: string; updatedAt: string }) => `${p.id}@${p.updatedAt}`));
      expect(new Set(seen).size).toBe(seen.length); // nothing repeated
      const ids = new Set(seen.map((s) => s.split('@')[0]));
      expect(ids.size).toBe(26); // 25 + Late
      expect(seen.filter((s) => s.startsWith(first[0]!.body.id))).toHaveLength(2); // created, then confirmed
    });

    it('returns the last 7 days by default, filters by booking date, and validates its parameters', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const p = (await book({ ...valid, bookingDate: '2027-04-10T20:00' }, own)).body;
      await book({ ...valid, bookingDate: '2027-04-12T20:00' }, own);
      await wait(1100);
      const all = await stack.api('GET', '/api/prenotazioni/sync', { token: own });
      expect(all.body).toMatchObject({ hasMore: false, limit: 500 });
      expect(all.body.items).toHaveLength(2);
      expect(Date.parse(all.body.serverTime)).toBeGreaterThan(Date.parse(p.updatedAt));
      const ranged = await stack.api('GET', '/api/prenotazioni/sync?dal=2027-04-10&al=2027-04-11', {
        token: own,
      });
      expect(ranged.body.items.map((x: { id: string }) => x.id)).toEqual([p.id]);
      for (const query of ['modifiedSince=yesterday', 'limit=0', 'limit=5001', 'dal=10/04/2027']) {
        expect(
          (await stack.api('GET', `/api/prenotazioni/sync?${query}`, { token: own })).status,
          query,
        ).toBe(400);
      }
    });
  });

  describe('availability with bookings', () => {
    it('leaves out tables booked in the window, counts touching ends as free, ignores cancelled bookings', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const busy = await table(4, own);
      const free = await table(6, own);
      const small = await table(2, own);
      const inactive = await table(8, own, { attivo: false });
      await book({ ...valid, bookingDate: '2027-05-10T20:00', tableIds: [busy.id] }, own);
      const cancelled = (await book({ ...valid, bookingDate: '2027-05-10T20:00', tableIds: [free.id] }, own))
        .body;
      await stack.api('POST', `/api/prenotazioni/${cancelled.id}/annulla`, { token: own });
      const check = (dataOra: string, durataMediaPasto = 120) =>
        stack.api('POST', '/api/tavoli/verifica-disponibilita', {
          token: own,
          body: { dataOra, numeroPersone: 3, durataMediaPasto },
        });
      const during = await check('2027-05-10T21:00');
      expect(during.status).toBe(200);
      expect(during.body.tavoliDisponibili.map((t: { id: string }) => t.id)).toEqual([free.id]);
      expect(during.body.availableTables).toEqual(during.body.tavoliDisponibili);
      expect(during.body).toMatchObject({ capacitaTotale: 6, totalCapacity: 6 });
      const after = await check('2027-05-10T22:00');
      expect(after.body.availableTables.map((t: { id: string }) => t.id).sort()).toEqual(
        [busy.id, free.id].sort(),
      );
      const before = await check('2027-05-10T18:00', 120);
      expect(before.body.totalCapacity).toBe(10);
      expect(
        [small.id, inactive.id].some((id) =>
          during.body.availableTables.some((t: { id: string }) => t.id === id),
        ),
      ).toBe(false);
    });

    it('sees a booking from the evening before that runs past midnight', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const t = await table(4, own);
      await book({ ...valid, bookingDate: '2027-05-10T23:30', durationMinutes: 120, tableIds: [t.id] }, own);
      const res = await stack.api('POST', '/api/tavoli/verifica-disponibilita', {
        token: own,
        body: { dataOra: '2027-05-11T00:30', numeroPersone: 2 },
      });
      expect(res.body.availableTables).toEqual([]);
    });

    it.each([
      [{ numeroPersone: 2 }, 'dataOra'],
      [{ dataOra: 'stasera', numeroPersone: 2 }, 'dataOra'],
      [{ dataOra: '2027-05-10T20:00', numeroPersone: 0 }, 'numeroPersone'],
      [{ dataOra: '2027-05-10T20:00', numeroPersone: 2, durataMediaPasto: 0 }, 'durataMediaPasto'],
      [{ dataOra: '2027-05-10T20:00', numeroPersone: 2, durataMediaPasto: 721 }, 'durataMediaPasto'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await stack.api('POST', '/api/tavoli/verifica-disponibilita', { token, body });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    });

    // Future switch days: holds that ended more than a day ago are pruned (docs/guarantees.md).
    it('finds the right local day on both daylight-saving switch days', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const t = await table(4, own);
      const early = (await book({ ...valid, bookingDate: '2027-03-28T00:30', tableIds: [t.id] }, own)).body;
      const late = (await book({ ...valid, bookingDate: '2027-03-28T23:30', tableIds: [t.id] }, own)).body;
      const autumnEarly = (await book({ ...valid, bookingDate: '2027-10-31T00:15', tableIds: [t.id] }, own))
        .body;
      const autumnLate = (
        await book({ ...valid, bookingDate: '2027-10-31T23:45', durationMinutes: 10, tableIds: [t.id] }, own)
      ).body;
      expect(early.startsAt).toBe('2027-03-27T23:30:00.000Z');
      expect(late.startsAt).toBe('2027-03-28T21:30:00.000Z');
      expect(autumnEarly.startsAt).toBe('2027-10-30T22:15:00.000Z');
      expect(autumnLate.startsAt).toBe('2027-10-31T22:45:00.000Z');
      const day = async (data: string) =>
        (
          await stack.graphql(own, `query($d: LocalDate!) { prenotazioniGiorno(data: $d) { id } }`, {
            d: data,
          })
        ).body.data.prenotazioniGiorno.map((p: { id: string }) => p.id);
      expect((await day('2027-03-28')).sort()).toEqual([early.id, late.id].sort());
      expect((await day('2027-10-31')).sort()).toEqual([autumnEarly.id, autumnLate.id].sort());
      expect(await day('2027-03-27')).toEqual([]);
      const spring = await stack.api('POST', '/api/tavoli/verifica-disponibilita', {
        token: own,
        body: { dataOra: '2027-03-28T02:30', numeroPersone: 2, durataMediaPasto: 60 },
      });
      expect(spring.body.availableTables.map((x: { id: string }) => x.id)).toEqual([t.id]);
      const overlapEarly = await stack.api('POST', '/api/tavoli/verifica-disponibilita', {
        token: own,
        body: { dataOra: '2027-03-28T01:00', numeroPersone: 2, durataMediaPasto: 60 },
      });
      expect(overlapEarly.body.availableTables).toEqual([]);
    });
  });

  describe('tables and bookings together', () => {
    it('refuses to delete a table with an upcoming booking, allows it once cancelled', async () => {
      const t = await table();
      const p = (await book({ ...valid, bookingDate: '2030-01-01T20:00', tableIds: [t.id] })).body;
      const refused = await stack.api('DELETE', `/api/tavoli/${t.id}`, { token });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('IN_USE');
      await stack.api('POST', `/api/prenotazioni/${p.id}/annulla`, { token });
      expect((await stack.api('DELETE', `/api/tavoli/${t.id}`, { token })).status).toBe(200);
    });

    it("keeps a table whose booking is still seated by the tenant's default meal duration", async () => {
      const tenantId = newTenantId();
      const [staff, admin] = [await mintToken({ tenantId }), await mintToken({ tenantId, admin: true })];
      const saved = await stack.api('PUT', '/api/capacity/config', {
        token: admin,
        body: { defaultMealMinutes: 240 },
      });
      expect(saved.status).toBe(200);
      const t = await table(4, staff);
      // Arrived 150 minutes ago without a duration of its own: seated until 240 minutes after the start.
      const arrived = new Date(Date.now() - 150 * 60_000).toISOString();
      expect((await book({ ...valid, bookingDate: arrived, tableIds: [t.id] }, staff)).status).toBe(201);
      const refused = await stack.api('DELETE', `/api/tavoli/${t.id}`, { token: staff });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('IN_USE');
    });

    it('joins bookings and tables both ways through GraphQL', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const t = await table(4, own);
      const p = (await book({ ...valid, bookingDate: '2027-06-01T20:00', tableIds: [t.id] }, own)).body;
      const res = await stack.graphql(
        own,
        `{ prenotazioni { codice tavoli { name seats } } tavoli { id prenotazioni(data: "2027-06-01") { codice } } }`,
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.prenotazioni).toEqual([
        { codice: p.codice, tavoli: [{ name: t.name, seats: 4 }] },
      ]);
      expect(res.body.data.tavoli).toEqual([{ id: t.id, prenotazioni: [{ codice: p.codice }] }]);
    });
  });

  it('answers 401 without a valid token on every booking route', async () => {
    for (const [method, path] of [
      ['POST', '/api/prenotazioni'],
      ['GET', '/api/prenotazioni'],
      ['GET', '/api/prenotazioni/sync'],
      ['GET', '/api/prenotazioni/x'],
      ['PATCH', '/api/prenotazioni/x'],
      ['POST', '/api/prenotazioni/x/conferma'],
      ['POST', '/api/prenotazioni/x/annulla'],
      ['POST', '/api/prenotazioni/x/stato'],
    ] as const) {
      const res = await stack.api(method, path, {
        token: 'not-a-token',
        ...(method === 'GET' ? {} : { body: {} }),
      });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});
