import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

/** What a booking channel's key may do with bookings and options, and what it may not (docs/channels.md). */
describe.each(MODES)('a booking channel books for its guests (%s mode)', (mode) => {
  let stack: Stack;
  let admin: string;
  let staff: string;
  let key: string;
  let channelId: string;
  let otherKey: string;
  let day = 0;

  beforeAll(async () => {
    stack = await startStack(mode);
    const tenant = newTenantId();
    admin = await mintToken({ tenantId: tenant, admin: true });
    staff = await mintToken({ tenantId: tenant });
    const created = await stack.api('POST', '/api/canali', { token: admin, body: { name: 'Sito' } });
    key = created.body.key;
    channelId = created.body.id;
    otherKey = (await stack.api('POST', '/api/canali', { token: admin, body: { name: 'Altro' } })).body.key;
    for (const seats of [2, 2, 4]) {
      await stack.api('POST', '/api/tavoli', {
        token: admin,
        body: { name: `T${seats}-${Math.random()}`, seats },
      });
    }
  });
  afterAll(async () => stack?.close());

  const date = () => `2027-04-${String(++day).padStart(2, '0')}T20:00`;
  const guest = { customerName: 'Ospite', customerPhone: '+39 333 1234567' };
  const book = (body: Record<string, unknown>, token = key) =>
    stack.api('POST', '/api/prenotazioni', { token, body: { covers: 2, bookingDate: date(), ...body } });
  const hold = (body: Record<string, unknown>, token = key) =>
    stack.api('POST', '/api/prenotazioni/opzioni', {
      token,
      body: { covers: 2, bookingDate: date(), ...body },
    });
  const fieldsOf = (res: { body: { error: { details: { fields: Array<{ field: string }> } } } }) =>
    res.body.error.details.fields.map((f) => f.field);

  it('books by the autoAssign rule: 201, origine online, its channel on the booking', async () => {
    const res = await book({ ...guest, autoAssign: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      origine: 'online',
      source: 'online',
      canale: { id: channelId, nome: 'Sito' },
      channel: { id: channelId, nome: 'Sito' },
      assignment: 'auto',
    });
    const staffBooking = await book({ ...guest, autoAssign: true }, staff);
    expect(staffBooking.body).toMatchObject({ origine: 'staff', source: 'staff', canale: null });
  });

  it('searches the times of a day, never told which tables (tableIds, combinationId null)', async () => {
    const res = await stack.api('GET', `/api/disponibilita?data=${date().slice(0, 10)}&coperti=2&ora=20:00`, {
      token: key,
    });
    expect(res.status).toBe(200);
    expect(res.body.orari.length).toBeGreaterThan(0);
    for (const time of res.body.orari) expect(time).toMatchObject({ tableIds: null, combinationId: null });
    const staffView = await stack.api(
      'GET',
      `/api/disponibilita?data=${date().slice(0, 10)}&coperti=2&ora=20:00`,
      {
        token: staff,
      },
    );
    expect(staffView.body.orari[0].tableIds).toEqual(expect.any(Array));
  });

  it('refuses tables, a combination, a state or an external id from a channel (400, naming them)', async () => {
    const tables = await stack.api('GET', '/api/tavoli', { token: staff });
    for (const [field, body] of [
      ['tableIds', { tableIds: [tables.body[0].id] }],
      ['combinationId', { combinationId: 'c1' }],
      ['state', { autoAssign: true, state: 'confermata' }],
    ] as const) {
      const res = await book({ ...guest, ...body });
      expect(res.status, field).toBe(400);
      expect(fieldsOf(res)).toContain(field);
    }
    // The REST body has no externalId (it is ignored there); through GraphQL a channel's is refused.
    const gql = await stack.graphql(
      key,
      'mutation($input: PrenotazioneInput!) { createPrenotazione(input: $input) { id } }',
      { input: { ...guest, covers: 2, bookingDate: date(), autoAssign: true, externalId: 'pos-1' } },
    );
    expect(gql.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(gql.body.errors[0].extensions.details.fields.map((f: { field: string }) => f.field)).toEqual([
      'externalId',
    ]);
  });

  it('needs autoAssign (or its own option), the guest’s name and a way to reach them', async () => {
    const res = await book({ customerName: 'Ospite', autoAssign: false });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['autoAssign', 'customerPhone']);
    const byEmail = await book({
      customerName: 'Ospite',
      customerEmail: 'ospite@example.com',
      autoAssign: true,
    });
    expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(201);
    expect(byEmail.body).toMatchObject({ customerPhone: null, customerEmail: 'ospite@example.com' });
  });

  it('holds an option by autoAssign only, for at most 600 s, and books from its own option only', async () => {
    expect(fieldsOf(await hold({ autoAssign: true, ttl: 601 }))).toEqual(['ttl']);
    expect(fieldsOf(await hold({ tableIds: ['x'] }))).toEqual(
      expect.arrayContaining(['tableIds', 'autoAssign']),
    );
    const bookingDate = date();
    const option = await hold({ autoAssign: true, ttl: 600, bookingDate });
    expect(option.status).toBe(201);
    const stolen = await book({ ...guest, opzioneId: option.body.id }, otherKey);
    expect(stolen.status).toBe(409);
    expect(stolen.body.error.code).toBe('OPTION_EXPIRED');
    expect(
      (await stack.api('DELETE', `/api/prenotazioni/opzioni/${option.body.id}`, { token: otherKey })).status,
    ).toBe(404);
    const booked = await book({ ...guest, opzioneId: option.body.id, bookingDate });
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ origine: 'online', canale: { id: channelId } });
  });

  it("releases its own option, never staff's", async () => {
    const mine = await hold({ autoAssign: true });
    const released = await stack.api('DELETE', `/api/prenotazioni/opzioni/${mine.body.id}`, { token: key });
    expect(released.body).toEqual({ id: mine.body.id, released: true });
    const staffOption = await hold({ autoAssign: true }, staff);
    expect(staffOption.status).toBe(201);
    const res = await stack.api('DELETE', `/api/prenotazioni/opzioni/${staffOption.body.id}`, { token: key });
    expect(res.status).toBe(404);
  });

  it('may not list options or bookings, nor change or cancel a booking (403)', async () => {
    const booking = await book({ ...guest, autoAssign: true });
    for (const [method, path] of [
      ['GET', '/api/prenotazioni/opzioni'],
      ['GET', '/api/prenotazioni'],
      ['GET', `/api/prenotazioni/${booking.body.id}`],
      ['POST', `/api/prenotazioni/${booking.body.id}/annulla`],
      ['PATCH', `/api/prenotazioni/${booking.body.id}`],
    ] as const) {
      const res = await stack.api(method, path, { token: key, ...(method === 'GET' ? {} : { body: {} }) });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });
});
