import { describe, expect, it } from 'vitest';
import { adminGatewayWithDocument, bodyProperties, expectRefusedNaming } from './support/rest-inject.js';

/**
 * The seating routes' request schemas (options, combinations, the waitlist, turn times) state what the services
 * enforce: the gateway refuses what the document refuses with a 400 naming the field, and what the document
 * allows is refused only for the state it meets (404, 409), never for its shape.
 */
describe('seating routes: the document is exact (inject, embedded)', () => {
  const rest = adminGatewayWithDocument();
  const { call } = rest;
  const bodySchema = (path: string, method: string) => bodyProperties(rest.doc, path, method);
  const refusedNaming = expectRefusedNaming;
  const booking = { covers: 2, bookingDate: '2027-03-05T20:00', customerName: 'Rossi' };

  it('POST /api/prenotazioni: at most one of tableIds, combinationId, autoAssign (the later one named)', async () => {
    refusedNaming(
      await call('POST', '/api/prenotazioni', { ...booking, tableIds: ['T'], autoAssign: true }),
      'autoAssign',
    );
    refusedNaming(
      await call('POST', '/api/prenotazioni', { ...booking, tableIds: ['T'], combinationId: 'C' }),
      'combinationId',
    );
    refusedNaming(
      await call('POST', '/api/prenotazioni', { ...booking, combinationId: 'C', autoAssign: true }),
      'autoAssign',
    );
    // autoAssign false with tables is one placement: allowed (the unknown table is then the seed's 400 on it).
    refusedNaming(
      await call('POST', '/api/prenotazioni', { ...booking, tableIds: ['T'], autoAssign: false }),
      'tableIds',
    );
  });

  it('POST /api/prenotazioni: an unknown combinationId is a 400 naming it, as an unknown table is (seed), and so is a blank one', async () => {
    refusedNaming(
      await call('POST', '/api/prenotazioni', { ...booking, combinationId: 'no-such-combination' }),
      'combinationId',
    );
    refusedNaming(
      await call('POST', '/api/prenotazioni', { ...booking, combinationId: ' ' }),
      'combinationId',
    );
  });

  it('POST /api/prenotazioni with opzioneId: needs only a name, takes no placement or duration', async () => {
    // Covers and date come from the option: without them the body is valid (an unknown option is 409).
    const fromUnknown = await call('POST', '/api/prenotazioni', {
      opzioneId: 'no-such-option',
      customerName: 'R',
    });
    expect(fromUnknown.status).toBe(409);
    expect(fromUnknown.body.error.code).toBe('OPTION_EXPIRED');
    expect((await call('POST', '/api/prenotazioni', { holdId: 'no-such-option', cliente: 'R' })).status).toBe(
      409,
    );
    refusedNaming(
      await call('POST', '/api/prenotazioni', { opzioneId: 'o', customerName: 'R', tableIds: ['T'] }),
      'tableIds',
    );
    refusedNaming(
      await call('POST', '/api/prenotazioni', { opzioneId: 'o', customerName: 'R', durationMinutes: 90 }),
      'durationMinutes',
    );
    refusedNaming(
      await call('POST', '/api/prenotazioni', { opzioneId: 'o', customerName: 'R', state: 'completata' }),
      'state',
    );
    expect((await call('POST', '/api/prenotazioni', { opzioneId: 'o' })).status).toBe(400);
  });

  it('POST /api/prenotazioni/opzioni: ttl 30..900, exactly one placement, tableIds not empty', async () => {
    expect(bodySchema('/api/prenotazioni/opzioni', 'post').ttl).toMatchObject({ minimum: 30, maximum: 900 });
    const option = { covers: 2, bookingDate: '2027-03-05T20:00', autoAssign: true };
    refusedNaming(await call('POST', '/api/prenotazioni/opzioni', { ...option, ttl: 29 }), 'ttl');
    refusedNaming(await call('POST', '/api/prenotazioni/opzioni', { ...option, ttl: 901 }), 'ttl');
    expect(
      (await call('POST', '/api/prenotazioni/opzioni', { covers: 2, bookingDate: '2027-03-05T20:00' }))
        .status,
    ).toBe(400);
    refusedNaming(
      await call('POST', '/api/prenotazioni/opzioni', {
        covers: 2,
        bookingDate: '2027-03-05T20:00',
        tableIds: [],
      }),
      'tableIds',
    );
    const unknownTable = await call('POST', '/api/prenotazioni/opzioni', {
      covers: 2,
      bookingDate: '2027-03-05T20:00',
      tableIds: ['no-such-table'],
      ttl: 30,
    });
    refusedNaming(unknownTable, 'tableIds');
    // No table at all in this tenant: auto-assignment finds none (state).
    expect((await call('POST', '/api/prenotazioni/opzioni', { ...option, ttl: 900 })).status).toBe(409);
  });

  it('POST /api/combinazioni: 2..8 distinct tables, name and maxCovers required; PATCH requires nothing', async () => {
    expect(bodySchema('/api/combinazioni', 'post').tableIds).toMatchObject({
      minItems: 2,
      maxItems: 8,
      uniqueItems: true,
    });
    const combination = { name: 'T1+T2', tableIds: ['a', 'b'], maxCovers: 6 };
    refusedNaming(await call('POST', '/api/combinazioni', { ...combination, tableIds: ['a'] }), 'tableIds');
    refusedNaming(
      await call('POST', '/api/combinazioni', { ...combination, tableIds: ['a', 'a'] }),
      'tableIds',
    );
    refusedNaming(await call('POST', '/api/combinazioni', { name: 'X', tableIds: ['a', 'b'] }), 'maxCovers');
    refusedNaming(await call('POST', '/api/combinazioni', { ...combination, maxCovers: 0 }), 'maxCovers');
    refusedNaming(await call('POST', '/api/combinazioni', { ...combination, attivo: null }), 'attivo');
    expect((await call('PATCH', '/api/combinazioni/no-such-combination', {})).status).toBe(404);
  });

  it('the waitlist: a party of 1..1000 with a name; seat on tables or a combination; left or cancelled', async () => {
    refusedNaming(await call('POST', '/api/attesa', { customerName: 'R', covers: 0 }), 'covers');
    refusedNaming(await call('POST', '/api/attesa', { customerName: ' ', covers: 2 }), 'customerName');
    expect((await call('POST', '/api/attesa', { cliente: 'R', numeroPersone: 2 })).status).toBe(201);
    refusedNaming(
      await call('POST', '/api/attesa/any/siedi', { tableIds: ['T'], combinationId: 'C' }),
      'combinationId',
    );
    refusedNaming(await call('POST', '/api/attesa/any/siedi', { tableIds: [] }), 'tableIds');
    expect((await call('POST', '/api/attesa/any/siedi', {})).status).toBe(404);
    refusedNaming(await call('POST', '/api/attesa/any/annulla', { state: 'seated' }), 'state');
    expect((await call('POST', '/api/attesa/any/annulla', { state: 'left' })).status).toBe(404);
  });

  // Schemathesis (--checks all, seed 292656617134246651970064172967252443301) found these four.
  it('PATCH /api/prenotazioni/{id}: autoAssign on a booking that is no longer active is 409 INVALID_TRANSITION (state), not 400', async () => {
    const created = await call('POST', '/api/prenotazioni', { ...booking, state: 'completata' });
    expect(created.status).toBe(201);
    const res = await call('PATCH', `/api/prenotazioni/${created.body.id}`, { autoAssign: true });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('INVALID_TRANSITION');
    // The same on create is the body's own contradiction: refused by the document.
    refusedNaming(
      await call('POST', '/api/prenotazioni', { ...booking, state: 'completata', autoAssign: true }),
      'state',
    );
  });

  // A 404 there would say the entry just created is missing (Schemathesis ST302, seed 181301277762276803796051728675350987010).
  it('POST /api/attesa/{id}/siedi: a table or combination that is not this tenant’s is 409 TABLE_UNAVAILABLE, not a 400 or 404', async () => {
    const party = await call('POST', '/api/attesa', { customerName: 'R', covers: 2 });
    const tables = await call('POST', `/api/attesa/${party.body.id}/siedi`, { tableIds: ['<table id>'] });
    expect(tables.status).toBe(409);
    expect(tables.body.error.code).toBe('TABLE_UNAVAILABLE');
    const combination = await call('POST', `/api/attesa/${party.body.id}/siedi`, {
      combinationId: 'no-such',
    });
    expect(combination.status).toBe(409);
    expect(combination.body.error.code).toBe('TABLE_UNAVAILABLE');
    expect((await call('GET', `/api/attesa/${party.body.id}`)).body.state).toBe('waiting');
  });

  it('POST /api/prenotazioni/opzioni: an unknown combination is the documented 400 naming it', async () => {
    expect(rest.doc.paths['/api/prenotazioni/opzioni'].post.responses['400']).toBeDefined();
    const res = await call('POST', '/api/prenotazioni/opzioni', {
      covers: 2,
      bookingDate: '2027-03-05T20:00',
      combinationId: 'no-such-combination',
    });
    refusedNaming(res, 'combinationId');
  });

  it('POST /api/prenotazioni from an option: covers or bookingDate other than the option’s is the documented 400', async () => {
    const table = await call('POST', '/api/tavoli', { name: 'T', seats: 4 });
    const option = await call('POST', '/api/prenotazioni/opzioni', {
      covers: 3,
      bookingDate: '2027-03-06T20:00',
      tableIds: [table.body.id],
    });
    expect(option.status).toBe(201);
    expect(rest.doc.paths['/api/prenotazioni'].post.description).toContain('must be the option’s');
    const res = await call('POST', '/api/prenotazioni', {
      opzioneId: option.body.id,
      cliente: 'R',
      covers: 1,
      bookingDate: '1970-01-01T00:00',
    });
    refusedNaming(res, 'covers');
    refusedNaming(res, 'bookingDate');
    const booked = await call('POST', '/api/prenotazioni', { opzioneId: option.body.id, cliente: 'R' });
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ covers: 3, tableIds: [table.body.id] });
  });

  it('PUT /api/capacity/config: turn times of 15..720 minutes, at most 20 rows; reseatFreezeMinutes 0..1440', async () => {
    refusedNaming(
      await call('PUT', '/api/capacity/config', { turnTimes: [{ maxCovers: 2, minutes: 14 }] }),
      'turnTimes.0.minutes',
    );
    refusedNaming(
      await call('PUT', '/api/capacity/config', { turnTimes: [{ maxCovers: 0, minutes: 90 }] }),
      'turnTimes.0.maxCovers',
    );
    const rows = Array.from({ length: 21 }, (_, i) => ({ maxCovers: i + 1, minutes: 60 }));
    refusedNaming(await call('PUT', '/api/capacity/config', { turnTimes: rows }), 'turnTimes');
    refusedNaming(
      await call('PUT', '/api/capacity/config', { reseatFreezeMinutes: 1441 }),
      'reseatFreezeMinutes',
    );
    refusedNaming(await call('PUT', '/api/capacity/config', { reseat: null }), 'reseat');
    const saved = await call('PUT', '/api/capacity/config', {
      turnTimes: [
        { maxCovers: 2, minutes: 15 },
        { maxCovers: 20, minutes: 720 },
      ],
      reseat: false,
      reseatFreezeMinutes: 0,
    });
    expect(saved.status).toBe(200);
  });
});
