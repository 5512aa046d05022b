// A table's history and the reports through the REST facade, in both modes (docs/reports.md): a small day of
// bookings, a walk-in from the waitlist and status changes, then the report (JSON, CSV, GraphQL) equals the
// figures the day makes; the suggested turn times, applied; administrators only; the table's history newest first.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

describe.each(MODES)('reports (%s mode)', (mode) => {
  let stack: Stack;
  let staff: string;
  let admin: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    const tenant = newTenantId();
    staff = await mintToken({ tenantId: tenant });
    admin = await mintToken({ tenantId: tenant, admin: true });
  });
  afterAll(async () => stack?.close());

  const api = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, as = staff) =>
    stack.api(method, path, { token: as, ...(body === undefined ? {} : { body }) });
  const ok = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, as = staff) => {
    const res = await api(method, path, body, as);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const status = (id: string, body: Record<string, unknown>) => ok('PUT', `/api/tavoli/${id}/status`, body);

  it('reports the day, as JSON, CSV and GraphQL, and keeps each table’s history', async () => {
    // Services: the whole day in UTC, so the changes made now fall in today's.
    await ok(
      'PUT',
      '/api/capacity/config',
      {
        timeZone: 'UTC',
        openingHours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
          weekday,
          intervals: [{ open: '00:00', close: '24:00' }],
        })),
        turnTimes: [
          { maxCovers: 2, minutes: 60 },
          { maxCovers: 6, minutes: 120 },
        ],
      },
      admin,
    );
    const t1 = (await ok('POST', '/api/tavoli', { name: 'R1', seats: 4 })).id as string;
    const t2 = (await ok('POST', '/api/tavoli', { name: 'R2', seats: 2 })).id as string;
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const book = async (covers: number, tableIds: string[], minutesAgo: number) =>
      (
        await ok('POST', '/api/prenotazioni', {
          customerName: 'Ospite',
          covers,
          bookingDate: at(minutesAgo),
          tableIds,
        })
      ).id as string;
    // Seated (2 covers on R1, paid 80), a no-show (3 covers), a cancellation, a walk-in (2 covers on R2).
    await book(2, [t1], 2);
    const missed = await book(3, [], 3);
    const cancelled = await book(2, [], 4);
    await ok('POST', `/api/prenotazioni/${missed}/conferma`, {});
    await ok('POST', `/api/prenotazioni/${missed}/stato`, { nuovoStato: 'no_show' });
    await ok('POST', `/api/prenotazioni/${cancelled}/annulla`, {});
    await status(t1, { status: 'occupied', pax: 2 });
    await status(t1, { status: 'payment_pending', totalAmount: 80 });
    await status(t1, { status: 'free' });
    const party = (await ok('POST', '/api/attesa', { customerName: 'Walk', covers: 2 })).id as string;
    await ok('POST', `/api/attesa/${party}/siedi`, { tableIds: [t2] });
    await status(t2, { status: 'dirty' });

    const today = new Date(now).toISOString().slice(0, 10);
    const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10);
    const query = `dal=${yesterday}&al=${today}`;
    const totals = {
      copertiPrenotati: 5,
      coversBooked: 5,
      copertiSeduti: 4,
      coversSeated: 4,
      walkIn: 2,
      walkIns: 2,
      noShow: 1,
      noShows: 1,
      prenotazioniDovute: 2,
      bookingsDue: 2,
      tassoNoShow: 0.5,
      noShowRate: 0.5,
      annullamenti: 1,
      cancellations: 1,
      ricavo: 80,
      revenue: 80,
      // 80 over 6 seats x 48 hours
      ricavoPerPostoOra: 0.28,
      revPash: 0.28,
    };
    const report = await vi.waitFor(
      async () => {
        const res = await api('GET', `/api/report?${query}`, undefined, admin);
        expect(res.status).toBe(200);
        expect(res.body.totali).toMatchObject(totals);
        // The last event of the day (R2 dirty) is in: both turns have ended.
        expect(res.body.turni[0].sedute).toBe(2);
        return res.body;
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(report).toMatchObject({ dal: yesterday, al: today, salaId: null, totals: report.totali });
    expect(report.servizi.map((s: { data: string; inizio: string; fine: string }) => s.data)).toEqual([
      yesterday,
      today,
    ]);
    // Today's service alone: 80 over 6 seats x 24 hours.
    expect(report.servizi[1]).toMatchObject({
      date: today,
      start: '00:00',
      end: '24:00',
      ...totals,
      ricavoPerPostoOra: 0.56,
      revPash: 0.56,
    });
    expect(report.turni).toEqual([
      expect.objectContaining({ coperti: 2, sedute: 2, medianaMinuti: 0, configuratiMinuti: 60 }),
      expect.objectContaining({ coperti: 6, sedute: 0, medianaMinuti: null, configuratiMinuti: 120 }),
    ]);
    expect(report.perOra.reduce((sum: number, h: { coperti: number }) => sum + h.coperti, 0)).toBe(4);

    const csv = await stack.api('GET', `/api/report?${query}`, {
      token: admin,
      headers: { accept: 'text/csv' },
      openapi: false,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toBe(
      'date,start,end,coversBooked,coversSeated,walkIns,noShows,bookingsDue,noShowRate,cancellations,seatUtilisation,revenue,revPash',
    );
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(new RegExp(`^${today},00:00,24:00,5,4,2,1,2,0.5,1,[0-9.]+,80,0.56$`));

    const graphql = await stack.graphql(
      admin,
      'query($dal: LocalDate!, $al: LocalDate!) { report(dal: $dal, al: $al) { totals { coversSeated revenue } } }',
      { dal: yesterday, al: today },
    );
    expect(graphql.body.data.report.totals).toEqual({ coversSeated: 4, revenue: 80 });

    const suggested = await ok('GET', `/api/report/turni-suggeriti?${query}`, undefined, admin);
    expect(suggested).toEqual([
      expect.objectContaining({ maxCovers: 2, suggeritiMinuti: 60, sedute: 2, datiSufficienti: false }),
      expect.objectContaining({ maxCovers: 6, suggeritiMinuti: 120, sedute: 0, datiSufficienti: false }),
    ]);

    const history = await ok('GET', `/api/tavoli/${t1}/storico?limite=2`);
    expect(history).toMatchObject({ id: t1 });
    expect(history.storico.map((c: { stato: string }) => c.stato)).toEqual(['free', 'payment_pending']);
    expect(history.history[1]).toMatchObject({
      status: 'payment_pending',
      previousStatus: 'occupied',
      totalAmount: 80,
    });
    // Twenty more parties of two (no booking: the pax) back the first row: its median is applied, at capacity's
    // floor of 15 minutes (these turns last an instant).
    for (let i = 0; i < 20; i++) {
      await status(t1, { status: 'occupied', pax: 2 });
      await status(t1, { status: 'free' });
    }
    await vi.waitFor(
      async () => {
        const rows = await ok('GET', `/api/report/turni-suggeriti?${query}`, undefined, admin);
        expect(rows[0]).toMatchObject({ sedute: 22, datiSufficienti: true, suggeritiMinuti: 15 });
      },
      { timeout: 15_000, interval: 200 },
    );
    const applied = await ok(
      'POST',
      '/api/report/turni-suggeriti/applica',
      { dal: yesterday, al: today },
      admin,
    );
    expect(applied.map((r: { suggestedMinutes: number }) => r.suggestedMinutes)).toEqual([15, 120]);
    expect((await ok('GET', '/api/capacity/config')).turnTimes).toEqual([
      { maxCovers: 2, minutes: 15 },
      { maxCovers: 6, minutes: 120 },
    ]);

    expect((await api('GET', `/api/report?${query}`)).status).toBe(403);
    expect((await api('GET', `/api/report/turni-suggeriti?${query}`)).status).toBe(403);
    expect((await api('POST', '/api/report/turni-suggeriti/applica', { dal: today, al: today })).status).toBe(
      403,
    );
    expect((await api('GET', `/api/report?dal=${today}&al=2026-13-01`, undefined, admin)).status).toBe(400);

    expect((await api('GET', '/api/tavoli/no-such-table/storico')).status).toBe(404);
  });
});
