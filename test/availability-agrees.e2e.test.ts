import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

/**
 * The availability check and the double-booking guard agree (docs/guarantees.md): each booking counts
 * with its effective duration (its own, else the tenant's default meal duration, stored when created or moved),
 * so a table the check reports free can be booked for that window, and one it leaves out is refused.
 */
describe.each(MODES)('availability agrees with the booking guard (%s mode)', (mode) => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(mode);
  });
  afterAll(async () => stack?.close());

  const newTenant = async () => {
    const tenantId = newTenantId();
    return { staff: await mintToken({ tenantId }), admin: await mintToken({ tenantId, admin: true }) };
  };
  const table = async (token: string, name = `T${Math.random().toString(36).slice(2, 7)}`) => {
    const res = await stack.api('POST', '/api/tavoli', { token, body: { name, seats: 4 } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const book = (token: string, tableId: string, bookingDate: string, durationMinutes?: number) =>
    stack.api('POST', '/api/prenotazioni', {
      token,
      body: {
        covers: 2,
        bookingDate,
        customerName: 'Agree',
        tableIds: [tableId],
        ...(durationMinutes ? { durationMinutes } : {}),
      },
    });
  const freeTables = async (token: string, dataOra: string, durataMediaPasto: number) => {
    const res = await stack.api('POST', '/api/tavoli/verifica-disponibilita', {
      token,
      body: { dataOra, numeroPersone: 2, durataMediaPasto },
    });
    expect(res.status).toBe(200);
    return (res.body.availableTables as Array<{ id: string }>).map((t) => t.id);
  };
  /**
   * Asks the check for [dataOra, +minutes) and then books exactly that window: the booking succeeds iff the
   * check listed the table (a successful probe is cancelled again). Returns what the check said.
   */
  const agrees = async (token: string, tableId: string, dataOra: string, minutes: number) => {
    const free = (await freeTables(token, dataOra, minutes)).includes(tableId);
    const res = await book(token, tableId, dataOra, minutes);
    expect(res.status, `${dataOra} for ${minutes} min: the check said ${free ? 'free' : 'taken'}`).toBe(
      free ? 201 : 409,
    );
    if (free) {
      const cancelled = await stack.api('POST', `/api/prenotazioni/${res.body.id}/annulla`, { token });
      expect(cancelled.status).toBe(200);
    } else {
      expect(res.body.error.code).toBe('TABLE_UNAVAILABLE');
    }
    return free;
  };

  it('counts a booking without a duration with the default meal duration in the check, as the guard does', async () => {
    const { staff } = await newTenant();
    const t = await table(staff);
    expect((await book(staff, t, '2027-09-01T20:00')).status).toBe(201);
    // the defect: the check used the asked 60 minutes for the 20:00 booking and said free, the guard refused
    expect(await agrees(staff, t, '2027-09-01T21:00', 60)).toBe(false);
    expect(await agrees(staff, t, '2027-09-01T21:59', 60)).toBe(false);
    expect(await agrees(staff, t, '2027-09-01T22:00', 60)).toBe(true);
  });

  it("uses the tenant's configured default meal duration, stored with the booking", async () => {
    const { staff, admin } = await newTenant();
    const saved = await stack.api('PUT', '/api/capacity/config', {
      token: admin,
      body: { defaultMealMinutes: 90 },
    });
    expect(saved.status).toBe(200);
    const t = await table(staff);
    const booked = await book(staff, t, '2027-09-02T20:00');
    expect(booked.status).toBe(201);
    const read = await stack.graphql(
      staff,
      `query($id: ID!) { prenotazione(id: $id) { durationMinutes effectiveDurationMinutes endsAt } }`,
      { id: booked.body.id },
    );
    expect(read.body.data.prenotazione).toEqual({
      durationMinutes: null,
      effectiveDurationMinutes: 90,
      endsAt: '2027-09-02T19:30:00.000Z',
    });
    expect(await agrees(staff, t, '2027-09-02T21:00', 60)).toBe(false);
    // 20:00 + 90 minutes touches 21:30: free in the check (asked for 120 minutes) and bookable
    expect(await agrees(staff, t, '2027-09-02T21:30', 120)).toBe(true);
  });

  it('counts touching ends as free on both sides and honours per-booking durations', async () => {
    const { staff } = await newTenant();
    const t = await table(staff);
    expect((await book(staff, t, '2027-09-03T19:00', 45)).status).toBe(201);
    expect(await agrees(staff, t, '2027-09-03T19:45', 30)).toBe(true);
    expect(await agrees(staff, t, '2027-09-03T19:44', 30)).toBe(false);
    expect(await agrees(staff, t, '2027-09-03T18:00', 60)).toBe(true);
    expect(await agrees(staff, t, '2027-09-03T18:01', 60)).toBe(false);
  });

  it('sees a booking of the previous evening that runs past midnight', async () => {
    const { staff } = await newTenant();
    const t = await table(staff);
    expect((await book(staff, t, '2027-09-04T23:30', 180)).status).toBe(201);
    expect(await agrees(staff, t, '2027-09-05T02:00', 60)).toBe(false);
    expect(await agrees(staff, t, '2027-09-05T02:30', 60)).toBe(true);
  });

  it('agrees across the daylight-saving switches (Europe/Rome)', async () => {
    const { staff } = await newTenant();
    const t = await table(staff);
    // spring: 01:30 + 60 min real time ends at 03:30 local (02:00 to 03:00 does not exist)
    expect((await book(staff, t, '2027-03-28T01:30', 60)).status).toBe(201);
    expect(await agrees(staff, t, '2027-03-28T03:00', 30)).toBe(false);
    expect(await agrees(staff, t, '2027-03-28T03:30', 30)).toBe(true);
    // autumn: 01:30 + 120 min real time ends at 02:30 local the second time (02:00 to 03:00 happens twice)
    expect((await book(staff, t, '2027-10-31T01:30')).status).toBe(201);
    expect(await agrees(staff, t, '2027-10-31T02:30+01:00', 30)).toBe(true);
    expect(await agrees(staff, t, '2027-10-31T02:15+01:00', 30)).toBe(false);
  });

  it('is told the holds of the asked tables only, through the window query', async () => {
    const { staff } = await newTenant();
    const a = await table(staff);
    const b = await table(staff);
    const first = (await book(staff, a, '2027-09-06T20:00', 60)).body;
    await book(staff, b, '2027-09-06T23:30', 60);
    const res = await stack.graphql(
      staff,
      `query($f: DateTime!, $t: DateTime!, $ids: [ID!]!) {
        occupazioniTavoli(from: $f, to: $t, tableIds: $ids) { tableId prenotazioneId startsAt endsAt }
      }`,
      { f: '2027-09-06T18:00:00Z', t: '2027-09-06T21:00:00Z', ids: [a, b] },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.occupazioniTavoli).toEqual([
      {
        tableId: a,
        prenotazioneId: first.id,
        startsAt: '2027-09-06T18:00:00.000Z',
        endsAt: '2027-09-06T19:00:00.000Z',
      },
    ]);
  });
});
