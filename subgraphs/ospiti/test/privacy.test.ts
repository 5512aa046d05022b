import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { drive, GUEST_FIELDS, type Guest } from './support/drive.js';
import { hostOspiti, newTenant, type Hosted } from './support/hosted.js';

describe('ospiti: export and erasure (in-process)', () => {
  let h: Hosted;
  beforeAll(async () => {
    h = await hostOspiti();
  });
  afterAll(async () => {
    await h?.close();
  });
  const { book, linkedGuest, setState, guest, guestOfBooking } = drive(() => h);

  const erase = (token: string, id: string) =>
    h
      .run<{ oblioOspite: Guest }>(
        'ospiti',
        `mutation($id: ID!) { oblioOspite(id: $id) { ${GUEST_FIELDS} } }`,
        { id },
        token,
      )
      .then((r) => r.oblioOspite);

  const exportOf = (token: string, id: string) =>
    h
      .run<{
        esportaOspite: {
          ospite: Guest;
          prenotazioni: Array<{ id: string }>;
          attese: Array<{ id: string; customerName: string; customerPhone: string | null }>;
          esportatoAt: string;
        };
      }>(
        'ospiti',
        `query($id: ID!) { esportaOspite(id: $id) { ospite { ${GUEST_FIELDS} } prenotazioni { id }
          attese { id customerName customerPhone covers state } esportatoAt } }`,
        { id },
        token,
      )
      .then((r) => r.esportaOspite);

  it('exports the profile, bookings and waitlist entries to an administrator only', async () => {
    const t = await newTenant();
    const older = await book(t.staff, {
      customerName: 'Giulia',
      customerPhone: '3201234567',
      bookingDate: '2027-04-01T20:00:00',
    });
    const newer = await book(t.staff, {
      customerName: 'Giulia',
      customerPhone: '3201234567',
      bookingDate: '2027-06-01T20:00:00',
    });
    const { id } = await linkedGuest(t.staff, older);
    await linkedGuest(t.staff, newer);
    const { aggiungiAttesa } = await h.run<{ aggiungiAttesa: { id: string } }>(
      'prenotazione',
      'mutation($i: VoceAttesaInput!) { aggiungiAttesa(input: $i) { id } }',
      { i: { customerName: 'Giulia', covers: 3, customerPhone: '+393201234567' } },
      t.staff,
    );
    await vi.waitFor(async () => expect((await exportOf(t.admin, id)).attese).toHaveLength(1));
    const exported = await exportOf(t.admin, id);
    expect(exported.ospite).toMatchObject({ id, nome: 'Giulia', telefono: '+393201234567' });
    expect(exported.prenotazioni).toEqual([{ id: newer }, { id: older }]);
    expect(exported.attese).toEqual([
      {
        id: aggiungiAttesa.id,
        customerName: 'Giulia',
        customerPhone: '+393201234567',
        covers: 3,
        state: 'waiting',
      },
    ]);
    await expect(exportOf(t.staff, id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(exportOf(t.admin, 'missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses to erase a guest with a booking still to come, then erases for good: reads, search, later events', async () => {
    const t = await newTenant();
    const phone = '+39 333 777 8888';
    const past = await book(t.staff, {
      customerName: 'Franco Gialli',
      customerPhone: phone,
      bookingDate: '2026-01-10T20:00:00',
    });
    const ahead = await book(t.staff, {
      customerName: 'Franco Gialli',
      customerPhone: phone,
      bookingDate: '2027-01-10T20:00:00',
    });
    const { id } = await linkedGuest(t.staff, past);
    await linkedGuest(t.staff, ahead);
    await h.run(
      'ospiti',
      'mutation($id: ID!) { updateOspite(id: $id, input: { tags: ["VIP"], note: "ama il vino rosso", email: "franco@example.com" }) { id } }',
      { id },
      t.staff,
    );
    await setState(t.staff, past, 'confermata');
    await setState(t.staff, past, 'completata');
    await vi.waitFor(async () => expect((await guest(t.staff, id))!.visite).toBe(1));

    const { aggiungiAttesa: entry } = await h.run<{ aggiungiAttesa: { id: string } }>(
      'prenotazione',
      'mutation($i: VoceAttesaInput!) { aggiungiAttesa(input: $i) { id } }',
      { i: { customerName: 'Franco', covers: 2, customerPhone: phone, notes: 'allergico' } },
      t.staff,
    );
    await vi.waitFor(async () =>
      expect(
        (
          await h.run<{ _entities: Array<{ ospite: { id: string } | null }> }>(
            'ospiti',
            'query($r: [_Any!]!) { _entities(representations: $r) { ... on VoceAttesa { ospite { id } } } }',
            { r: [{ __typename: 'VoceAttesa', id: entry.id }] },
            t.staff,
          )
        )._entities[0]!.ospite,
      ).toEqual({ id }),
    );
    // Prenotazione's side of the erasure is an administrator's too.
    await expect(
      h.run(
        'prenotazione',
        'mutation($p: [ID!]!) { cancellaDatiOspite(prenotazioneIds: $p, vociAttesaIds: []) { prenotazioni } }',
        { p: [past] },
        t.staff,
      ),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(erase(t.staff, id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const refused = await erase(t.admin, id).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'IN_USE', details: { prenotazioneIds: [ahead] } });

    await setState(t.staff, ahead, 'annullata');
    const events = h.collect(`tenant.${t.tenantId}.restaurant.>`);
    await vi.waitFor(async () => expect(await erase(t.admin, id)).toMatchObject({ cancellato: true }));
    // The erasure's events: each booking's bookings.updated and the entry's waitlist.erased, with the erased
    // record, and the guest's guests.erased; none carries the name, the phone, the email or the notes.
    await vi.waitFor(() =>
      expect(events.received.map((e) => `${e.type} ${e.subject}`)).toEqual(
        expect.arrayContaining([
          `bookings.updated ${past}`,
          `bookings.updated ${ahead}`,
          `waitlist.erased ${entry.id}`,
          `guests.erased ${id}`,
        ]),
      ),
    );
    const entryErased = events.received.find((e) => e.type === 'waitlist.erased')!;
    expect(entryErased.data).toMatchObject({
      id: entry.id,
      customerName: 'Ospite cancellato',
      cliente: 'Ospite cancellato',
      customerPhone: null,
      notes: null,
      position: null,
    });
    expect(events.received.find((e) => e.type === 'guests.erased')!.data).toMatchObject({
      id,
      erased: true,
      visits: 1,
      campi: expect.arrayContaining(['nome', 'telefono', 'email', 'tag', 'note', 'cancellato']),
    });
    const published = JSON.stringify(events.received);
    for (const text of ['Franco', 'Gialli', '7778888', 'franco@example.com', 'allergico', 'vino'])
      expect(published).not.toContain(text);
    const erased = await guest(t.staff, id);
    expect(erased).toMatchObject({
      nome: null,
      telefono: null,
      email: null,
      note: null,
      tag: [],
      allergie: [],
      cancellato: true,
      visite: 1,
      coperti: 2,
    });
    expect(await erase(t.admin, id)).toMatchObject({ cancellato: true, cancellatoAt: erased!.cancellatoAt });
    // The bookings lost the name, phone and notes too (prenotazione's records).
    const booking = await h.run<{ prenotazione: Record<string, unknown> }>(
      'prenotazione',
      'query($id: ID!) { prenotazione(id: $id) { customerName cliente customerPhone notes } }',
      { id: past },
      t.staff,
    );
    expect(booking.prenotazione).toEqual({
      customerName: 'Ospite cancellato',
      cliente: 'Ospite cancellato',
      customerPhone: null,
      notes: null,
    });
    const erasedEntry = await h.run<{ voceAttesa: Record<string, unknown> }>(
      'prenotazione',
      'query($id: ID!) { voceAttesa(id: $id) { customerName customerPhone notes } }',
      { id: entry.id },
      t.staff,
    );
    expect(erasedEntry.voceAttesa).toEqual({
      customerName: 'Ospite cancellato',
      customerPhone: null,
      notes: null,
    });
    const found = async (q: string) =>
      (
        await h.run<{ ospiti: Guest[] }>(
          'ospiti',
          'query($q: String) { ospiti(q: $q) { id } }',
          { q },
          t.staff,
        )
      ).ospiti;
    for (const q of ['Franco', 'gialli', '7778888', 'franco@example.com']) expect(await found(q)).toEqual([]);
    // A later event of an old booking (its notes changed) brings nothing back.
    await h.run(
      'prenotazione',
      'mutation($id: ID!) { updatePrenotazione(id: $id, input: { notes: "x" }) { id } }',
      { id: past },
      t.staff,
    );
    await vi.waitFor(async () => expect((await guestOfBooking(t.staff, past))?.id).toBe(id));
    expect(await guest(t.staff, id)).toEqual(erased);
    await expect(
      h.run(
        'ospiti',
        'mutation($id: ID!) { updateOspite(id: $id, input: { nome: "Franco" }) { id } }',
        { id },
        t.staff,
      ),
    ).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    // The phone is free again: a new booking with it makes a new guest.
    const again = await book(t.staff, { customerName: 'Franco Gialli', customerPhone: phone });
    const fresh = await linkedGuest(t.staff, again);
    expect(fresh.id).not.toBe(id);
    expect(fresh).toMatchObject({ nome: 'Franco Gialli', visite: 0, cancellato: false });
    events.stop();
  });
});
