// Guests through the REST facade and GraphQL, in both modes: made from bookings by their phone (never the name),
// counted from the booking events by ospiti's durable consumer, searched, edited, paired and merged, exported and
// erased (docs/guests.md); Prenotazione.ospite through federation; tenant isolation and validation.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

describe.each(MODES)('ospiti (%s mode)', (mode) => {
  let stack: Stack;
  let staff: string;
  let admin: string;
  let other: string;
  let tenant: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    tenant = newTenantId();
    staff = await mintToken({ tenantId: tenant });
    admin = await mintToken({ tenantId: tenant, admin: true });
    other = await mintToken({ tenantId: newTenantId(), admin: true });
  });
  afterAll(async () => stack?.close());

  const api = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, as = staff) =>
    stack.api(method, path, { token: as, ...(body === undefined ? {} : { body }) });
  const book = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/api/prenotazioni', {
      covers: 2,
      bookingDate: '2027-09-10T20:00:00',
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  /** The guests `q` finds once ospiti has consumed the events that make them. */
  const found = (q: string, count: number) =>
    vi.waitFor(
      async () => {
        const res = await api('GET', `/api/ospiti?q=${encodeURIComponent(q)}`);
        expect(res.status).toBe(200);
        expect(res.body).toHaveLength(count);
        return res.body as Array<Record<string, any>>;
      },
      { timeout: 15_000, interval: 100 },
    );
  const guestOf = async (bookingId: string) =>
    (
      await stack.graphql(
        staff,
        'query($id: ID!) { prenotazione(id: $id) { id customerName ospite { id nome visite noShow } } }',
        {
          id: bookingId,
        },
      )
    ).body.data.prenotazione.ospite;

  it('makes one guest per normalised phone, never by the name, and shows it on the booking (federation)', async () => {
    const first = await book({ customerName: 'Teresa Longo', customerPhone: '333 444 5566' });
    await book({ customerName: 'T. Longo', customerPhone: '+39 333 4445566' });
    await book({ customerName: 'Teresa Longo', customerPhone: '+39 347 0001112' });
    const [a, b] = await found('Teresa Longo', 2);
    expect([a!.telefono, b!.telefono].sort()).toEqual(['+393334445566', '+393470001112']);
    const byPhone = await found('4445566', 1);
    expect(byPhone[0]).toMatchObject({
      nome: 'Teresa Longo',
      name: 'Teresa Longo',
      phone: '+393334445566',
      visite: 0,
    });
    expect(await guestOf(first)).toMatchObject({ id: byPhone[0]!.id, nome: 'Teresa Longo' });
    const bookings = await api('GET', `/api/ospiti/${byPhone[0]!.id}/prenotazioni`);
    expect(bookings.status).toBe(200);
    expect(bookings.body.map((p: { customerPhone: string }) => p.customerPhone).sort()).toEqual([
      '+39 333 4445566',
      '333 444 5566',
    ]);
  });

  it('counts a visit and a no-show from the booking events, reads, edits and finds by tag', async () => {
    const visit = await book({ customerName: 'Ugo Sala', customerPhone: '+39 320 9990001', covers: 5 });
    const noShow = await book({ customerName: 'Ugo Sala', customerPhone: '+39 320 9990001' });
    const [guest] = await found('ugo', 1);
    for (const [id, states] of [
      [visit, ['confermata', 'completata']],
      [noShow, ['confermata', 'no_show']],
    ] as const)
      for (const nuovoStato of states)
        expect((await api('POST', `/api/prenotazioni/${id}/stato`, { nuovoStato })).status).toBe(200);
    await vi.waitFor(
      async () =>
        expect((await api('GET', `/api/ospiti/${guest!.id}`)).body).toMatchObject({
          visite: 1,
          visits: 1,
          coperti: 5,
          noShow: 1,
          noShows: 1,
          primaVisita: '2027-09-10T20:00:00',
        }),
      { timeout: 15_000, interval: 100 },
    );
    expect(await guestOf(visit)).toMatchObject({ visite: 1, noShow: 1 });
    const edited = await api('PATCH', `/api/ospiti/${guest!.id}`, {
      tags: ['VIP'],
      allergie: ['crostacei'],
      notes: 'tavolo 12',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      tag: ['VIP'],
      tags: ['VIP'],
      allergies: ['crostacei'],
      note: 'tavolo 12',
    });
    expect((await api('GET', '/api/ospiti?tag=VIP')).body.map((g: { id: string }) => g.id)).toEqual([
      guest!.id,
    ]);
  });

  it('answers bad input with 400 naming the field, unknown and foreign guests with 404, staff with 403 for privacy', async () => {
    const [guest] = await found('ugo', 1);
    const id = guest!.id as string;
    // The email's shape is the document's pattern (the gateway refuses it first); the phone's validity is ospiti's.
    for (const [body, field] of [
      [{ email: 'nope' }, 'email'],
      [{ telefono: '12' }, 'telefono'],
    ] as const) {
      const bad = await api('PATCH', `/api/ospiti/${id}`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual([field]);
    }
    expect((await api('GET', '/api/ospiti?limite=0')).status).toBe(400);
    expect((await api('POST', `/api/ospiti/${id}/unisci`, {})).status).toBe(400);
    expect((await api('GET', '/api/ospiti/nobody')).status).toBe(404);
    expect((await api('GET', '/api/ospiti/nobody/prenotazioni')).status).toBe(404);
    for (const [method, path, body] of [
      ['GET', `/api/ospiti/${id}`],
      ['GET', `/api/ospiti/${id}/prenotazioni`],
      ['PATCH', `/api/ospiti/${id}`, { notes: 'x' }],
      ['GET', `/api/ospiti/${id}/esporta`],
      ['POST', `/api/ospiti/${id}/oblio`],
    ] as const)
      expect((await api(method, path, body, other)).status, `${method} ${path}`).toBe(404);
    expect((await api('GET', '/api/ospiti?q=ugo', undefined, other)).body).toEqual([]);
    expect((await api('GET', `/api/ospiti/${id}/esporta`)).status).toBe(403);
    expect((await api('POST', `/api/ospiti/${id}/oblio`)).status).toBe(403);
  });

  it('pairs duplicates, merges one into the other, exports and erases for good', async () => {
    const kept = await book({
      customerName: 'Vera Conti',
      customerPhone: '+39 331 2223334',
      bookingDate: '2026-02-01T20:00:00',
    });
    const [a] = await found('vera', 1);
    const merged = await book({ customerName: 'Vera Conti', customerPhone: '+39 331 2223335' });
    const [, b] = (await found('vera', 2)).sort((x, y) => (x.createdAt < y.createdAt ? -1 : 1));
    expect((await api('PATCH', `/api/ospiti/${b!.id}`, { email: 'vera@example.com' })).status).toBe(200);
    expect((await api('PATCH', `/api/ospiti/${a!.id}`, { email: 'Vera@Example.com' })).status).toBe(200);
    const pairs = await api('GET', '/api/ospiti/duplicati');
    expect(pairs.status).toBe(200);
    expect(pairs.body).toEqual([
      expect.objectContaining({ a: expect.objectContaining({ id: a!.id }), campi: ['nome', 'email'] }),
    ]);
    const union = await api('POST', `/api/ospiti/${a!.id}/unisci`, { ospiteId: b!.id });
    expect(union.status, JSON.stringify(union.body)).toBe(200);
    expect((await api('GET', `/api/ospiti/${b!.id}`)).status).toBe(404);
    expect((await guestOf(merged)).id).toBe(a!.id);

    // The merged booking is still ahead: no erasure until it is cancelled.
    const refused = await api('POST', `/api/ospiti/${a!.id}/oblio`, undefined, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'IN_USE', details: { prenotazioneIds: [merged] } });
    const exported = await api('GET', `/api/ospiti/${a!.id}/esporta`, undefined, admin);
    expect(exported.status).toBe(200);
    expect(exported.body.ospite).toMatchObject({ id: a!.id, nome: 'Vera Conti', email: 'vera@example.com' });
    expect(exported.body.prenotazioni.map((p: { id: string }) => p.id)).toEqual([merged, kept]);
    expect(exported.body.prenotazioni[1]).toMatchObject({
      customerName: 'Vera Conti',
      bookingDate: '2026-02-01T20:00:00',
    });

    expect((await api('POST', `/api/prenotazioni/${merged}/annulla`, {})).status).toBe(200);
    const since = new Date(Date.now() - 1000).toISOString();
    await vi.waitFor(
      async () =>
        expect((await api('POST', `/api/ospiti/${a!.id}/oblio`, undefined, admin)).status).toBe(200),
      { timeout: 15_000, interval: 100 },
    );
    // The bookings carry no personal data any more: reads, the sync page, events published afterwards.
    for (const id of [kept, merged]) {
      const booking = (await api('GET', `/api/prenotazioni/${id}`)).body;
      expect(booking).toMatchObject({
        customerName: 'Ospite cancellato',
        cliente: 'Ospite cancellato',
        customerPhone: null,
      });
    }
    const events = stack.events(`tenant.${tenant}.restaurant.bookings.>`);
    try {
      const patched = await api('PATCH', `/api/prenotazioni/${kept}`, { covers: 3 });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const later = await events.waitFor(1);
      expect(JSON.stringify(later)).not.toMatch(/Vera|Conti|222333/);
    } finally {
      events.stop();
    }
    await vi.waitFor(
      async () => {
        const page = (await api('GET', `/api/prenotazioni/sync?modifiedSince=${encodeURIComponent(since)}`))
          .body;
        const ids = page.items.map((p: { id: string }) => p.id);
        expect(ids).toEqual(expect.arrayContaining([kept, merged]));
        expect(JSON.stringify(page)).not.toMatch(/Vera|Conti|222333/);
      },
      { timeout: 10_000, interval: 250 },
    );
    const erased = (await api('GET', `/api/ospiti/${a!.id}`)).body;
    expect(erased).toMatchObject({
      nome: null,
      telefono: null,
      email: null,
      note: null,
      tag: [],
      cancellato: true,
      erased: true,
    });
    for (const q of ['vera', 'conti', '2223334', 'vera@example.com'])
      expect((await api('GET', `/api/ospiti?q=${encodeURIComponent(q)}`)).body, q).toEqual([]);
    expect((await api('GET', `/api/ospiti/${a!.id}/esporta`, undefined, admin)).body.ospite).toMatchObject({
      nome: null,
      email: null,
    });
    // A new booking with the phone makes a new guest; the erased one stays empty.
    await book({ customerName: 'Vera Conti', customerPhone: '+39 331 2223334' });
    const [fresh] = await found('vera', 1);
    expect(fresh!.id).not.toBe(a!.id);
    expect((await api('GET', `/api/ospiti/${a!.id}`)).body).toMatchObject({ nome: null, cancellato: true });
  });
});
