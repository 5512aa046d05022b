import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { RetentionScheduler, retentionCutoff, retentionKey } from '../src/retention.js';
import { drive } from './support/drive.js';
import { hostOspiti, newTenant, serviceTokens, type Hosted } from './support/hosted.js';

const DAY = 24 * 60 * 60 * 1000;

describe('retention: the cutoff', () => {
  it('is calendar months back, in UTC', () => {
    expect(retentionCutoff(new Date('2027-03-31T10:00:00Z'), 1).toISOString()).toBe(
      '2027-03-03T10:00:00.000Z',
    );
    expect(retentionCutoff(new Date('2027-12-28T00:00:00Z'), 12).toISOString()).toBe(
      '2026-12-28T00:00:00.000Z',
    );
    expect(retentionKey(new Date('2027-12-28T23:00:00Z'))).toBe('conservazione/2027-12-28');
    expect(retentionKey(new Date('2027-12-28T23:00:00Z'), 2)).toBe('conservazione/2027-12-28/2');
  });
});

/** Retention run by the scheduler on the embedded store, its clock set by the test (nothing slept). */
describe('retention: guests inactive for retentionMonths are erased (in-process, scheduler clock)', () => {
  let h: Hosted;
  beforeAll(async () => {
    h = await hostOspiti();
  });
  afterAll(async () => {
    await h?.close();
  });
  const { book, linkedGuest, setState, guest } = drive(() => h);

  const settings = (token: string, retentionMonths: number | null) =>
    h.run(
      'ospiti',
      'mutation($i: ImpostazioniOspitiInput!) { updateImpostazioniOspiti(input: $i) { retentionMonths } }',
      { i: { retentionMonths } },
      token,
    );

  it('erases the guests with no booking or waitlist activity since then, keeps the others, runs daily until off', async () => {
    const t = await newTenant();
    const tenantId = trustedTenantId(t.tenantId);
    // Thirteen months from now, with a retention of twelve: what happened today is a month too old.
    let clock = new Date(Date.now() + 13 * 31 * DAY);
    const retention = new RetentionScheduler({
      store: h.store,
      subgraphs: h.hosted.client,
      serviceTokens,
      now: () => clock,
      onEventsWritten: () => {},
    });
    const local = (at: Date) => at.toISOString().slice(0, 19);

    const old = await book(t.staff, {
      customerName: 'Vecchio Cliente',
      customerPhone: '+39 333 100 0001',
      bookingDate: '2026-01-10T20:00:00',
    });
    await setState(t.staff, old, 'confermata');
    await setState(t.staff, old, 'completata');
    const oldGuest = await linkedGuest(t.staff, old);
    await vi.waitFor(async () => expect((await guest(t.staff, oldGuest.id))!.visite).toBe(1));
    // Came back (a booking that started within the last twelve months of the clock).
    const recent = await book(t.staff, {
      customerName: 'Cliente Recente',
      customerPhone: '+39 333 100 0002',
      bookingDate: local(new Date(clock.getTime() - 20 * DAY)),
    });
    const recentGuest = await linkedGuest(t.staff, recent);
    // Booked for after the clock: kept, whatever its history.
    const ahead = await book(t.staff, {
      customerName: 'Cliente Futuro',
      customerPhone: '+39 333 100 0003',
      bookingDate: local(new Date(clock.getTime() + 10 * DAY)),
    });
    const aheadGuest = await linkedGuest(t.staff, ahead);

    await settings(t.admin, 12);
    const events = h.bus.subscribe(`tenant.${t.tenantId}.restaurant.guests.erased`);
    expect(await retention.scheduler.poll()).toMatchObject({ claimed: 1, done: 1 });
    // Retention's erasure publishes what the oblio does: guests.erased, with the counts kept.
    const iterator = events[Symbol.asyncIterator]();
    const { value: erasedEvent } = await iterator.next();
    events.unsubscribe();
    expect(erasedEvent).toMatchObject({
      type: 'guests.erased',
      subject: oldGuest.id,
      data: { id: oldGuest.id, erased: true, visits: 1 },
    });

    expect(await guest(t.staff, oldGuest.id)).toMatchObject({ cancellato: true, nome: null, visite: 1 });
    const { prenotazione } = await h.run<{ prenotazione: Record<string, unknown> }>(
      'prenotazione',
      'query($id: ID!) { prenotazione(id: $id) { customerName customerPhone } }',
      { id: old },
      t.staff,
    );
    expect(prenotazione).toEqual({ customerName: 'Ospite cancellato', customerPhone: null });
    expect(await guest(t.staff, recentGuest.id)).toMatchObject({
      cancellato: false,
      nome: 'Cliente Recente',
    });
    expect(await guest(t.staff, aheadGuest.id)).toMatchObject({ cancellato: false, nome: 'Cliente Futuro' });

    // The next run is a day later; nothing else is due before it.
    const next = retentionKey(new Date(clock.getTime() + DAY));
    expect((await retention.scheduler.list(tenantId, 'conservazione/')).map((j) => j.key)).toContain(next);
    expect(await retention.scheduler.poll()).toMatchObject({ claimed: 0 });

    // Retention switched off: the next run finds it so and the chain ends.
    await settings(t.admin, null);
    clock = new Date(clock.getTime() + DAY + 1000);
    expect(await retention.scheduler.poll()).toMatchObject({ claimed: 1, skipped: 1 });
    clock = new Date(clock.getTime() + 2 * DAY);
    expect(await retention.scheduler.poll()).toMatchObject({ claimed: 0 });
    expect(await guest(t.staff, recentGuest.id)).toMatchObject({ cancellato: false });
  });
});
