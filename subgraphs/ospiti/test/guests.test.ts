import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { arrivalSubject, type CloudEvent } from '@coperto/bus';
import { drive } from './support/drive.js';
import { hostOspiti, newTenant, type Hosted } from './support/hosted.js';

/** Restaurant-local wall clock (Europe/Rome) `hours` from now, as a booking's bookingDate. */
function romeWallClock(hours: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(Date.now() + hours * 3_600_000));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:00`;
}

describe('ospiti: guests made and counted from the booking events (embedded wiring, in-process)', () => {
  let h: Hosted;
  beforeAll(async () => {
    h = await hostOspiti();
  });
  afterAll(async () => {
    await h?.close();
  });

  const { book, guestOfBooking, linkedGuest, setState, guest } = drive(() => h);

  it('links bookings by the normalised phone, never by the name, and keeps the first booking’s name', async () => {
    const t = await newTenant();
    const first = await book(t.staff, { customerName: 'Maria Bianchi', customerPhone: '333 123 4567' });
    const guestA = await linkedGuest(t.staff, first);
    expect(guestA).toMatchObject({ nome: 'Maria Bianchi', name: 'Maria Bianchi', telefono: '+393331234567' });
    const samePhone = await book(t.staff, { customerName: 'M. Bianchi', customerPhone: '+39 333 1234567' });
    expect((await linkedGuest(t.staff, samePhone)).id).toBe(guestA.id);
    const sameName = await book(t.staff, { customerName: 'Maria Bianchi', customerPhone: '+39 347 7654321' });
    const guestB = await linkedGuest(t.staff, sameName);
    expect(guestB.id).not.toBe(guestA.id);
    expect((await guest(t.staff, guestA.id))!.nome).toBe('Maria Bianchi');
    // A booking with neither phone nor email has no guest, however its name matches.
    const nameOnly = await book(t.staff, { customerName: 'Maria Bianchi' });
    const other = await book(t.staff, { customerName: 'Probe', customerPhone: '333 000 1111' });
    await linkedGuest(t.staff, other); // events are handled in order: the name-only booking's was seen before
    expect(await guestOfBooking(t.staff, nameOnly)).toBeNull();
  });

  it('counts visits, covers, no-shows and late cancellations once each, whatever the events seen twice', async () => {
    const t = await newTenant();
    const seen: CloudEvent[] = [];
    const feed = h.bus.subscribe(`tenant.${t.tenantId}.restaurant.>`);
    void (async () => {
      for await (const event of feed) seen.push(event);
    })();
    const phone = '+39 340 111 2222';
    const visit = await book(t.staff, {
      customerName: 'Luca',
      customerPhone: phone,
      covers: 4,
      bookingDate: '2027-05-01T13:00:00',
    });
    const noShow = await book(t.staff, {
      customerName: 'Luca',
      customerPhone: phone,
      bookingDate: '2027-05-02T20:00:00',
    });
    const early = await book(t.staff, {
      customerName: 'Luca',
      customerPhone: phone,
      bookingDate: '2027-05-03T20:00:00',
    });
    const late = await book(t.staff, {
      customerName: 'Luca',
      customerPhone: phone,
      bookingDate: romeWallClock(3),
    });
    const { id } = await linkedGuest(t.staff, visit);
    await setState(t.staff, visit, 'confermata');
    await setState(t.staff, visit, 'completata');
    await setState(t.staff, noShow, 'confermata');
    await setState(t.staff, noShow, 'no_show');
    await setState(t.staff, early, 'annullata');
    await setState(t.staff, late, 'annullata');
    const counted = {
      visite: 1,
      coperti: 4,
      noShow: 1,
      annullamentiTardivi: 1,
      primaVisita: '2027-05-01T13:00:00',
      ultimaVisita: '2027-05-01T13:00:00',
    };
    await vi.waitFor(async () => expect(await guest(t.staff, id)).toMatchObject(counted));
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(10));
    feed.unsubscribe();
    // Every event published again, in order and backwards (a relay crash, a redelivery): nothing counts twice.
    // The in-process bus resolves a publish once the consumer handled the event.
    for (const event of [...seen, ...[...seen].reverse()]) await h.bus.publish(arrivalSubject(event)!, event);
    expect(await guest(t.staff, id)).toMatchObject(counted);
  });

  it('links a waitlist entry by its phone to the same guest as the bookings', async () => {
    const t = await newTenant();
    const booking = await book(t.staff, { customerName: 'Anna', customerPhone: '06 1234 5678' });
    const { id } = await linkedGuest(t.staff, booking);
    const { aggiungiAttesa } = await h.run<{ aggiungiAttesa: { id: string } }>(
      'prenotazione',
      'mutation($i: VoceAttesaInput!) { aggiungiAttesa(input: $i) { id } }',
      { i: { customerName: 'Anna R.', covers: 2, customerPhone: '+39 06 12345678' } },
      t.staff,
    );
    const entryGuest = () =>
      h.run<{ _entities: Array<{ ospite: { id: string } | null; guest: { id: string } | null }> }>(
        'ospiti',
        'query($r: [_Any!]!) { _entities(representations: $r) { ... on VoceAttesa { ospite { id } guest { id } } } }',
        { r: [{ __typename: 'VoceAttesa', id: aggiungiAttesa.id }] },
        t.staff,
      );
    await vi.waitFor(async () =>
      expect((await entryGuest())._entities[0]).toEqual({ ospite: { id }, guest: { id } }),
    );
  });

  it('keeps each tenant’s guests apart, also for the same phone', async () => {
    const [a, b] = [await newTenant(), await newTenant()];
    const guestA = await linkedGuest(
      a.staff,
      await book(a.staff, { customerName: 'Sara', customerPhone: '3331112222' }),
    );
    const guestB = await linkedGuest(
      b.staff,
      await book(b.staff, { customerName: 'Sara', customerPhone: '3331112222' }),
    );
    expect(guestB.id).not.toBe(guestA.id);
    expect(await guest(b.staff, guestA.id)).toBeNull();
    await expect(
      h.run(
        'ospiti',
        'mutation($id: ID!) { updateOspite(id: $id, input: { note: "x" }) { id } }',
        { id: guestA.id },
        b.staff,
      ),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
