import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

/** A guest token: one booking's guest reads, confirms, changes and cancels that booking, nothing else. */
describe.each(MODES)('guest tokens (%s mode)', (mode) => {
  let stack: Stack;
  let staff: string;
  let key: string;
  let otherStaff: string;
  let day = 0;

  beforeAll(async () => {
    stack = await startStack(mode);
    const tenant = newTenantId();
    const admin = await mintToken({ tenantId: tenant, admin: true });
    staff = await mintToken({ tenantId: tenant });
    key = (await stack.api('POST', '/api/canali', { token: admin, body: { name: 'Sito' } })).body.key;
    for (const seats of [2, 2, 4]) {
      await stack.api('POST', '/api/tavoli', {
        token: admin,
        body: { name: `T${seats}-${Math.random()}`, seats },
      });
    }
    const other = newTenantId();
    otherStaff = await mintToken({ tenantId: other });
    await stack.api('POST', '/api/tavoli', {
      token: await mintToken({ tenantId: other, admin: true }),
      body: { name: 'T2', seats: 2 },
    });
  });
  afterAll(async () => stack?.close());

  const date = () => `2027-05-${String(++day).padStart(2, '0')}T20:00`;
  const book = (token = key, body: Record<string, unknown> = {}) =>
    stack.api('POST', '/api/prenotazioni', {
      token,
      body: {
        covers: 2,
        bookingDate: date(),
        customerName: 'Ospite',
        customerPhone: '+39 333 1234567',
        autoAssign: true,
        ...body,
      },
    });
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

  it("comes in a channel's 201 (gestione = manage): role guest, the tenant, the booking, expiring at its end", async () => {
    const res = await book();
    expect(res.status).toBe(201);
    const { gestione, manage, id, startsAt } = res.body;
    expect(manage).toEqual(gestione);
    expect(gestione.expiresAt).toBe(new Date(Date.parse(startsAt) + 120 * 60_000).toISOString());
    const claims = claimsOf(gestione.token);
    expect(claims).toMatchObject({ role: 'guest', sub: id, iss: 'urn:coperto:service' });
    expect(claims.exp).toBe(Date.parse(gestione.expiresAt) / 1000);
    expect((await book(staff)).body).toMatchObject({ gestione: null, manage: null });
  });

  it('reads, confirms, changes notes and cancels its own booking', async () => {
    const booking = (await book()).body;
    const guest = booking.gestione.token;
    const path = `/api/prenotazioni/${booking.id}`;
    expect((await stack.api('GET', path, { token: guest })).body).toMatchObject({
      id: booking.id,
      state: 'pending',
    });
    expect((await stack.api('POST', `${path}/conferma`, { token: guest, body: {} })).body.state).toBe(
      'confermata',
    );
    const noted = await stack.api('PATCH', path, { token: guest, body: { notes: 'Seggiolone' } });
    expect(noted.body).toMatchObject({ notes: 'Seggiolone', tableIds: booking.tableIds, assignment: 'auto' });
    const cancelled = await stack.api('POST', `${path}/annulla`, {
      token: guest,
      body: { motivo: 'Imprevisto' },
    });
    expect(cancelled.body).toMatchObject({ state: 'annullata', motivo: 'Imprevisto' });
  });

  it('a new party or time is placed again by the autoAssign rule; nothing fits: 409 and the booking unchanged', async () => {
    const booking = (await book()).body;
    const guest = booking.gestione.token;
    const path = `/api/prenotazioni/${booking.id}`;
    const bigger = await stack.api('PATCH', path, { token: guest, body: { covers: 4 } });
    expect(bigger.status).toBe(200);
    expect(bigger.body.covers).toBe(4);
    expect(bigger.body.tableIds).not.toEqual(booking.tableIds);
    const later = await stack.api('PATCH', path, { token: guest, body: { bookingDate: date() } });
    expect(later.status).toBe(200);
    expect(later.body.tableIds).toHaveLength(1);
    const tooMany = await stack.api('PATCH', path, { token: guest, body: { covers: 9, notes: 'Tutti' } });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.code).toBe('NO_TABLE_AVAILABLE');
    const after = await stack.api('GET', path, { token: guest });
    expect(after.body).toEqual(later.body);
  });

  it('may change nothing else of it (400 naming the fields)', async () => {
    const booking = (await book()).body;
    const res = await stack.api('PATCH', `/api/prenotazioni/${booking.id}`, {
      token: booking.gestione.token,
      body: { tableIds: booking.tableIds, customerName: 'Altro', durationMinutes: 300 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'customerName',
      'durationMinutes',
      'tableIds',
    ]);
  });

  it('finds any other booking missing (404) and every other route forbidden (403)', async () => {
    const mine = (await book()).body;
    const guest = mine.gestione.token;
    const other = (await book(staff)).body;
    for (const [method, path] of [
      ['GET', `/api/prenotazioni/${other.id}`],
      ['POST', `/api/prenotazioni/${other.id}/conferma`],
      ['POST', `/api/prenotazioni/${other.id}/annulla`],
      ['PATCH', `/api/prenotazioni/${other.id}`],
    ] as const) {
      const res = await stack.api(method, path, { token: guest, ...(method === 'GET' ? {} : { body: {} }) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await stack.api('GET', `/api/prenotazioni/${other.id}`, { token: staff })).body.state).toBe(
      'pending',
    );
    for (const [method, path] of [
      ['GET', '/api/prenotazioni'],
      ['POST', '/api/prenotazioni'],
      ['POST', `/api/prenotazioni/${mine.id}/stato`],
      ['POST', `/api/prenotazioni/${mine.id}/gestione`],
      ['GET', '/api/prenotazioni/opzioni'],
      ['GET', '/api/tavoli'],
      ['GET', '/api/disponibilita?data=2027-05-01&coperti=2'],
    ] as const) {
      const res = await stack.api(method, path, { token: guest, ...(method === 'GET' ? {} : { body: {} }) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('staff get one with POST /gestione (a channel key may not; another tenant’s booking is 404)', async () => {
    const booking = (await book(staff)).body;
    const path = `/api/prenotazioni/${booking.id}`;
    const issued = await stack.api('POST', `${path}/gestione`, { token: staff, body: {} });
    expect(issued.status).toBe(200);
    expect(issued.body.expiresAt).toBe(new Date(Date.parse(booking.startsAt) + 120 * 60_000).toISOString());
    expect(claimsOf(issued.body.token)).toMatchObject({ role: 'guest', sub: booking.id });
    const read = await stack.api('GET', path, { token: issued.body.token });
    expect(read.body).toMatchObject({ id: booking.id, customerName: 'Ospite' });
    expect((await stack.api('POST', `${path}/gestione`, { token: key, body: {} })).status).toBe(403);
    expect((await stack.api('POST', `${path}/gestione`, { token: otherStaff, body: {} })).status).toBe(404);
    expect((await stack.api('GET', path, { token: otherStaff })).status).toBe(404);
  });

  it("sees no other booking through its booking's tables (/graphql), nor does a channel key", async () => {
    const mine = (await book()).body;
    const bookingDate = mine.bookingDate as string;
    const neighbour = await stack.api('POST', '/api/prenotazioni', {
      token: staff,
      body: {
        covers: 2,
        bookingDate: `${bookingDate.slice(0, 10)}T23:00`,
        customerName: 'Vicino',
        customerPhone: '+39 333 7654321',
        tableIds: mine.tableIds,
      },
    });
    expect(neighbour.status).toBe(201);
    const onTables = `{ id tavoli { id prenotazioni { id customerName } } }`;
    const asGuest = await stack.graphql(
      mine.gestione.token,
      `query ($id: ID!) { prenotazione(id: $id) ${onTables} }`,
      { id: mine.id },
    );
    expect(asGuest.body.errors).toBeUndefined();
    expect(asGuest.body.data.prenotazione.tavoli[0].prenotazioni).toEqual([
      { id: mine.id, customerName: 'Ospite' },
    ]);
    const asStaff = await stack.graphql(staff, `query ($id: ID!) { prenotazione(id: $id) ${onTables} }`, {
      id: mine.id,
    });
    expect(asStaff.body.data.prenotazione.tavoli[0].prenotazioni.map((p: { id: string }) => p.id)).toContain(
      neighbour.body.id,
    );
    const asChannel = await stack.graphql(
      key,
      `mutation ($input: PrenotazioneInput!) { createPrenotazione(input: $input) ${onTables} }`,
      {
        input: {
          covers: 2,
          bookingDate: `${bookingDate.slice(0, 10)}T20:00`,
          customerName: 'Ospite',
          customerPhone: '+39 333 1234567',
          autoAssign: true,
        },
      },
    );
    expect(asChannel.body.errors).toBeUndefined();
    for (const table of asChannel.body.data.createPrenotazione.tavoli) expect(table.prenotazioni).toEqual([]);
  });

  it("another tenant's guest token finds this tenant's booking missing", async () => {
    const mine = (await book()).body;
    const foreign = (await book(otherStaff)).body;
    const foreignToken = (
      await stack.api('POST', `/api/prenotazioni/${foreign.id}/gestione`, { token: otherStaff, body: {} })
    ).body.token;
    expect((await stack.api('GET', `/api/prenotazioni/${mine.id}`, { token: foreignToken })).status).toBe(
      404,
    );
    expect((await stack.api('GET', `/api/prenotazioni/${foreign.id}`, { token: foreignToken })).status).toBe(
      200,
    );
  });
});
