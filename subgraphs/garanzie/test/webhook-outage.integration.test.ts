// A Stripe event garanzie cannot finish because prenotazione is unreachable (its calls go to a port nothing listens
// on): the event is refused UNAVAILABLE (the webhook's 503, so Stripe delivers it again), never taken and dropped;
// the guarantee keeps the money and the move it owes, and Stripe's next delivery (a duplicate) makes the move.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError, httpStatusOf } from '@coperto/errors';
import { hostGaranzie, newTenant, serviceTokens, type Hosted, type Outage } from './support/hosted.js';
import { stripeEvent } from './support/stripe-events.js';

const POLICY = `mutation($input: PoliticaGaranzieInput!) { updatePoliticaGaranzie(input: $input) { stripeConfigured } }`;
const CREATE = `mutation($input: PrenotazioneInput!) { createPrenotazione(input: $input) { id } }`;
const GUARANTEE = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Prenotazione {
  garanzia { stato stripeIntentId addebitato motivo } } } }`;
const BOOKING = `query($id: ID!) { prenotazione(id: $id) { state } }`;
const EVENT = `mutation($e: String!) { eventoStripe(evento: $e) { esito } }`;
const CANCEL = `mutation($id: ID!) { annullaPrenotazione(id: $id, motivo: "changed plans") { state } }`;

describe('a Stripe event while prenotazione is unreachable (garanzie hosted, stripe-mock, MongoDB)', () => {
  const outage: Outage = { down: false };
  let h: Hosted;
  let t: Awaited<ReturnType<typeof newTenant>>;
  beforeAll(async () => {
    h = await hostGaranzie({ outage });
    t = await newTenant();
    const rules = [{ type: 'deposit', minCovers: 2, amountPerCover: 1500, currency: 'eur' }];
    await h.run(
      'garanzie',
      POLICY,
      { input: { rules, penalties: [{ minHours: 0, percent: 100 }] } },
      t.admin,
    );
  });
  afterAll(() => h?.close());

  /** A booking starting in `hours`, its deposit's event delivered while prenotazione is unreachable (refused). */
  const paidDuringOutage = async (hours = 48) => {
    const bookingDate = new Date(Date.now() + hours * 3600_000).toISOString().slice(0, 19);
    const input = { covers: 2, bookingDate, customerName: 'Conti' };
    const { id } = (await h.run('prenotazione', CREATE, { input }, t.staff)).createPrenotazione;
    const guarantee = async () =>
      (await h.run('garanzie', GUARANTEE, { r: [{ __typename: 'Prenotazione', id }] }, t.staff))._entities[0]
        .garanzia as { stato: string; stripeIntentId: string | null; addebitato: number } | null;
    const { stripeIntentId } = await vi.waitFor(
      async () => {
        const g = await guarantee();
        if (!g?.stripeIntentId) throw new Error(`no intent yet: ${JSON.stringify(g)}`);
        return g;
      },
      { timeout: 8000, interval: 50 },
    );
    const payments = `Bearer ${(await serviceTokens.paymentsToken({ tenantId: t.tenantId, bookingId: id })).token}`;
    const e = stripeEvent({
      id: `evt_outage_${id}`,
      type: 'payment_intent.succeeded',
      intentId: stripeIntentId!,
      tenantId: t.tenantId,
      bookingId: id,
    });
    const deliver = () => h.run('garanzie', EVENT, { e }, payments);

    outage.down = true;
    const refused = await deliver().then(
      () => null,
      (error: unknown) => error,
    );
    outage.down = false;
    return { id, deliver, guarantee, refused };
  };

  it('is refused UNAVAILABLE (503) and completed by the redelivery once prenotazione is back', async () => {
    const { id, deliver, guarantee, refused } = await paidDuringOutage();
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('UNAVAILABLE');
    expect(httpStatusOf((refused as AppError).code)).toBe(503);
    // The money is recorded; the booking could not be moved yet.
    expect(await guarantee()).toMatchObject({ stato: 'paid' });
    expect((await h.run('prenotazione', BOOKING, { id }, t.staff)).prenotazione.state).toBe('pending');

    expect((await deliver()).eventoStripe.esito).toBe('duplicate');
    expect((await h.run('prenotazione', BOOKING, { id }, t.staff)).prenotazione.state).toBe('caparra_pagata');
    expect((await deliver()).eventoStripe.esito).toBe('duplicate');
  });

  it('money taken while prenotazione was unreachable and cancelled before the redelivery is stuck, not charged', async () => {
    const { id, deliver, guarantee } = await paidDuringOutage(3);
    await h.run('prenotazione', CANCEL, { id }, t.staff);
    // Cancelled hours ahead, the tier (100 % from 0 h) would keep it all: the booking never took the money, so staff give it back.
    await vi.waitFor(
      async () =>
        expect(await guarantee()).toMatchObject({
          stato: 'stuck',
          addebitato: 0,
          motivo: 'booking_ended_before_payment',
        }),
      { timeout: 8000, interval: 50 },
    );
    expect((await deliver()).eventoStripe.esito).toBe('duplicate');
    expect(await guarantee()).toMatchObject({ stato: 'stuck', addebitato: 0 });
    expect((await h.run('prenotazione', BOOKING, { id }, t.staff)).prenotazione.state).toBe('annullata');
  });
});
