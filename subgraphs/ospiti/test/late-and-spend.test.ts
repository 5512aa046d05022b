import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CloudEvent } from '@coperto/bus';
import { drive, GUEST_FIELDS, type Guest } from './support/drive.js';
import { hostOspiti, newTenant, type Hosted } from './support/hosted.js';

/** Events ospiti may receive late (after an erasure) or more than once, and the spend from the tables' bills. */
describe('ospiti: late records of an erased guest, and spend (in-process)', () => {
  let h: Hosted;
  beforeAll(async () => {
    h = await hostOspiti();
  });
  afterAll(async () => {
    await h?.close();
  });
  const { book, linkedGuest, setState, guest, guestOfBooking } = drive(() => h);

  const spend = async (token: string, id: string) =>
    (
      await h.run<{ ospite: { spesaTotale: number; totalSpend: number } }>(
        'ospiti',
        'query($id: ID!) { ospite(id: $id) { spesaTotale totalSpend } }',
        { id },
        token,
      )
    ).ospite;

  const newTable = async (token: string, nome: string) =>
    (
      await h.run<{ createTavolo: { id: string } }>(
        'tavolo',
        'mutation($i: TavoloInput!) { createTavolo(input: $i) { id } }',
        { i: { nome, capacita: 4 } },
        token,
      )
    ).createTavolo.id;

  const setTable = (token: string, id: string, input: Record<string, unknown>) =>
    h.run(
      'tavolo',
      'mutation($id: ID!, $i: TableStatusInput!) { setTavoloStatus(id: $id, input: $i) { id } }',
      { id, i: input },
      token,
    );

  it("adds each table's bill to the guest of the booking it was seating, once per booking and table", async () => {
    const t = await newTenant();
    const [t1, t2] = [await newTable(t.staff, 'T1'), await newTable(t.staff, 'T2')];
    const feed = h.bus.subscribe(`tenant.${t.tenantId}.restaurant.tables.status`);
    const start = new Date(Date.now() - 30 * 60_000);
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Rome',
      dateStyle: 'short',
      timeStyle: 'medium',
    })
      .format(start)
      .replace(' ', 'T');
    const booking = await book(t.staff, {
      customerName: 'Sara Conti',
      customerPhone: '+39 347 111 2233',
      bookingDate: local,
      tableIds: [t1, t2],
    });
    const { id } = await linkedGuest(t.staff, booking);
    await setTable(t.staff, t1, { status: 'occupied' });
    await setTable(t.staff, t1, { status: 'payment_pending', totalAmount: 84.5 });
    await setTable(t.staff, t2, { status: 'payment_pending', totalAmount: 20.25 });
    await vi.waitFor(async () => expect((await spend(t.staff, id)).spesaTotale).toBe(104.75));
    expect((await spend(t.staff, id)).totalSpend).toBe(104.75);
    // Replayed (at-least-once) and a table going to payment again for the same booking: nothing more.
    const seen: CloudEvent[] = [];
    for await (const event of feed) {
      seen.push(event);
      if (seen.length === 3) break;
    }
    for (const event of seen) await h.deliver(event, t.tenantId);
    await setTable(t.staff, t1, { status: 'payment_pending', totalAmount: 84.5 });
    // A table's bill with no booking of a known guest on it (a walk-in without contacts) counts nowhere.
    const t3 = await newTable(t.staff, 'T3');
    await setTable(t.staff, t3, { status: 'payment_pending', totalAmount: 50 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await spend(t.staff, id)).spesaTotale).toBe(104.75);
  });

  it('a booking made before the erasure and seen after it goes to the erased guest, and loses its data too', async () => {
    const t = await newTenant();
    const phone = '+39 340 555 6677';
    const past = await book(t.staff, {
      customerName: 'Teresa Lunghi',
      customerPhone: phone,
      bookingDate: '2026-01-10T20:00:00',
    });
    const { id } = await linkedGuest(t.staff, past);
    await setState(t.staff, past, 'confermata');
    await setState(t.staff, past, 'completata');
    await vi.waitFor(async () => expect((await guest(t.staff, id))!.visite).toBe(1));

    // From here on ospiti sees nothing until the events are handed to it: they are "on their way".
    const feed = h.bus.subscribe(`tenant.${t.tenantId}.restaurant.bookings.created`);
    await h.stopConsumers();
    const late = await book(t.staff, {
      customerName: 'Teresa Lunghi',
      customerPhone: phone,
      customerEmail: 'teresa@example.com',
      notes: 'tavolo vicino alla finestra',
      bookingDate: '2027-03-01T20:00:00',
    });
    let created: CloudEvent | undefined;
    for await (const event of feed) {
      if (event.subject === late) created = event;
      break;
    }
    const erased = await h.run<{ oblioOspite: Guest }>(
      'ospiti',
      `mutation($id: ID!) { oblioOspite(id: $id) { ${GUEST_FIELDS} } }`,
      { id },
      t.admin,
    );
    expect(erased.oblioOspite).toMatchObject({ cancellato: true, nome: null });

    // The late event, twice (at least once): no new guest, the booking erased, the erased guest unchanged.
    await h.deliver(created!, t.tenantId);
    await h.deliver(created!, t.tenantId);
    expect((await guestOfBooking(t.staff, late))?.id).toBe(id);
    expect(await guest(t.staff, id)).toEqual(erased.oblioOspite);
    const { prenotazione } = await h.run<{ prenotazione: Record<string, unknown> }>(
      'prenotazione',
      'query($id: ID!) { prenotazione(id: $id) { customerName customerPhone customerEmail notes } }',
      { id: late },
      t.staff,
    );
    expect(prenotazione).toEqual({
      customerName: 'Ospite cancellato',
      customerPhone: null,
      customerEmail: null,
      notes: null,
    });
    for (const q of ['Teresa', '5556677', 'teresa@example.com']) {
      const { ospiti } = await h.run<{ ospiti: Guest[] }>(
        'ospiti',
        'query($q: String) { ospiti(q: $q) { id } }',
        { q },
        t.staff,
      );
      expect(ospiti).toEqual([]);
    }
  });
});
