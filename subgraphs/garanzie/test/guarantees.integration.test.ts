// garanzie hosted with prenotazione on the real servers (mongo-java-server, stripe-mock): guarantees asked for by the
// policy, secured by Stripe events, settled with the booking; the booking moved only through prenotazione's API.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { AppError } from '@coperto/errors';
import { Scheduler } from '@coperto/scheduler';
import { dueTimeJob, DUE_JOBS_COLLECTION } from '../src/due-times.js';
import { hostGaranzie, newTenant, PUBLISHABLE_KEY, serviceTokens, type Hosted } from './support/hosted.js';
import { stripeEvent } from './support/stripe-events.js';

const POLICY = `mutation($input: PoliticaGaranzieInput!) {
  updatePoliticaGaranzie(input: $input) { rules { type minCovers } dueMinutes penalties { minHours percent } stripeConfigured }
}`;
const GUARANTEE = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Prenotazione {
  garanzia { stato status modo importo valuta scadenza clientSecret stripeIntentId addebitato rimborsato motivo
    chiavePubblicabile publishableKey contoStripe stripeAccount }
} } }`;
const CREATE = `mutation($input: PrenotazioneInput!) { createPrenotazione(input: $input) { id state startsAt } }`;
const BOOKING = `query($id: ID!) { prenotazione(id: $id) { id state } }`;
const STATE = `mutation($id: ID!, $s: BookingState!) { cambiaStatoPrenotazione(id: $id, nuovoStato: $s) { state } }`;
const PATCH = `mutation($id: ID!, $input: PrenotazionePatch!) { updatePrenotazione(id: $id, input: $input) { covers } }`;
const CANCEL = `mutation($id: ID!) { annullaPrenotazione(id: $id, motivo: "changed plans") { state } }`;
const EVENT = `mutation($e: String!) { eventoStripe(evento: $e) { esito outcome } }`;
const STUCK = `{ garanzieBloccate { prenotazioneId stato motivo } }`;

const HOUR = 3600_000;
/** A local wall-clock time `hours` from now (Europe/Rome), on the quarter hour (or to the second). */
function localIn(hours: number, quarter = true): string {
  const exact = Date.now() + hours * HOUR;
  const at = new Date(quarter ? Math.ceil(exact / (15 * 60_000)) * 15 * 60_000 : exact);
  return at.toLocaleString('sv-SE', { timeZone: 'Europe/Rome' }).replace(' ', 'T');
}

describe('guarantees (garanzie hosted with prenotazione, stripe-mock, MongoDB)', () => {
  let h: Hosted;
  let t: Awaited<ReturnType<typeof newTenant>>;
  beforeAll(async () => {
    h = await hostGaranzie();
    t = await newTenant();
    await h.run(
      'garanzie',
      POLICY,
      {
        input: {
          rules: [
            { type: 'deposit', minCovers: 6, amountPerCover: 1000, currency: 'EUR' },
            { type: 'card', minCovers: 3, amountPerCover: 2000, currency: 'eur' },
          ],
          penalties: [
            { minHours: 48, percent: 0 },
            { minHours: 24, percent: 50 },
            { minHours: 0, percent: 100 },
          ],
          noShowPercent: 100,
        },
      },
      t.admin,
    );
  });
  afterAll(() => h?.close());

  const book = async (covers: number, hoursAhead: number, quarter = true) => {
    const input = { covers, bookingDate: localIn(hoursAhead, quarter), customerName: 'Rossi' };
    return (await h.run('prenotazione', CREATE, { input }, t.staff)).createPrenotazione as { id: string };
  };
  const guaranteeOf = async (id: string, token = t.staff) =>
    (await h.run('garanzie', GUARANTEE, { r: [{ __typename: 'Prenotazione', id }] }, token))._entities[0]
      .garanzia as Record<string, any> | null;
  const waitGuarantee = (id: string, until: (g: Record<string, any>) => boolean = (g) => g.clientSecret) =>
    vi.waitFor(
      async () => {
        const g = await guaranteeOf(id);
        if (!g || !until(g)) throw new Error(`guarantee of ${id}: ${JSON.stringify(g)}`);
        return g;
      },
      { timeout: 8000, interval: 50 },
    );
  const stateOf = async (id: string) =>
    (await h.run('prenotazione', BOOKING, { id }, t.staff)).prenotazione.state;
  const deliver = async (
    bookingId: string,
    type: string,
    intentId: string,
    id = `evt_${type}_${bookingId}`,
  ) => {
    const payments = `Bearer ${(await serviceTokens.paymentsToken({ tenantId: t.tenantId, bookingId })).token}`;
    const e = stripeEvent({
      id,
      type,
      intentId,
      tenantId: t.tenantId,
      bookingId,
      paymentMethod: 'pm_card_visa',
    });
    return (await h.run('garanzie', EVENT, { e }, payments)).eventoStripe.esito as string;
  };

  it('a deposit: requested while the booking is pending, paid by the webhook, caparra_pagata once', async () => {
    const { id } = await book(6, 72);
    const g = await waitGuarantee(id);
    expect(g).toMatchObject({ stato: 'requested', modo: 'deposit', importo: 6000, valuta: 'eur' });
    expect(Date.parse(g.scadenza) - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    expect(await stateOf(id)).toBe('pending');

    expect(await deliver(id, 'payment_intent.succeeded', g.stripeIntentId)).toBe('applied');
    expect(await guaranteeOf(id)).toMatchObject({ stato: 'paid', status: 'paid' });
    expect(await stateOf(id)).toBe('caparra_pagata');
    // Stripe delivers again: nothing changes twice.
    expect(await deliver(id, 'payment_intent.succeeded', g.stripeIntentId)).toBe('duplicate');

    // Cancelled 72 h ahead: the first tier (0 %): the whole deposit refunded at stripe-mock.
    await h.run('prenotazione', CANCEL, { id }, t.staff);
    await waitGuarantee(id, (x) => x.stato === 'refunded');
    expect(await guaranteeOf(id)).toMatchObject({ rimborsato: 6000, addebitato: 0 });
  });

  it('a card held (start within 5 days), authorized by the webhook, captured in full on a no-show', async () => {
    const { id } = await book(3, 30);
    const g = await waitGuarantee(id);
    expect(g).toMatchObject({ modo: 'hold', importo: 6000 });
    await deliver(id, 'payment_intent.amount_capturable_updated', g.stripeIntentId);
    expect(await stateOf(id)).toBe('caparra_pagata');
    await h.run('prenotazione', STATE, { id, s: 'no_show' }, t.staff);
    await waitGuarantee(id, (x) => x.stato === 'charged');
    expect((await guaranteeOf(id))!.addebitato).toBe(6000);
  });

  it('a party changed while the guarantee is requested: the amount follows it; once the card is held, it stays', async () => {
    const { id } = await book(3, 30);
    const g = await waitGuarantee(id);
    expect(g).toMatchObject({ modo: 'hold', importo: 6000 });
    // Still requested: 5 covers at 2000 each (the intent's amount updated at Stripe, stripe-mock accepting it).
    await h.run('prenotazione', PATCH, { id, input: { covers: 5 } }, t.staff);
    await waitGuarantee(id, (x) => x.importo === 10_000);
    expect(await guaranteeOf(id)).toMatchObject({ stato: 'requested', stripeIntentId: g.stripeIntentId });
    // Held: a smaller party keeps the amount the guest agreed to, and the no-show charges it in full.
    await deliver(id, 'payment_intent.amount_capturable_updated', g.stripeIntentId);
    await h.run('prenotazione', PATCH, { id, input: { covers: 2 } }, t.staff);
    await h.run('prenotazione', STATE, { id, s: 'no_show' }, t.staff);
    await waitGuarantee(id, (x) => x.stato === 'charged');
    expect(await guaranteeOf(id)).toMatchObject({ importo: 10_000, addebitato: 10_000 });
  });

  it('a card saved (start beyond 5 days), charged off-session by the tier of a late cancellation', async () => {
    const { id } = await book(4, 24 * 8);
    const g = await waitGuarantee(id);
    expect(g).toMatchObject({ modo: 'saved_card', importo: 8000 });
    expect(g.stripeIntentId).toMatch(/^seti_/);
    await deliver(id, 'setup_intent.succeeded', g.stripeIntentId);
    expect(await guaranteeOf(id)).toMatchObject({ stato: 'authorized' });
    await h.run('prenotazione', CANCEL, { id }, t.staff);
    // 8 days ahead: at least 48 h: free; the card is left alone.
    await waitGuarantee(id, (x) => x.stato === 'released');
    expect((await guaranteeOf(id))!.addebitato).toBe(0);
  });

  it('money arriving for a booking already cancelled is stuck and listed for staff', async () => {
    const { id } = await book(3, 30);
    const g = await waitGuarantee(id);
    await h.run('prenotazione', CANCEL, { id }, t.staff);
    await waitGuarantee(id, (x) => x.stato === 'released');
    expect(await deliver(id, 'payment_intent.amount_capturable_updated', g.stripeIntentId)).toBe('stuck');
    expect(await stateOf(id)).toBe('annullata');
    const { garanzieBloccate } = await h.run('garanzie', STUCK, {}, t.staff);
    expect(garanzieBloccate).toContainEqual({
      prenotazioneId: id,
      stato: 'stuck',
      motivo: 'money_after_booking_ended',
    });
    // Administrators give it back at Stripe (the hold let go); then it is no longer listed, and not refunded twice.
    const REFUND = `mutation($id: ID!) { rimborsaGaranziaBloccata(id: $id) { stato } }`;
    await expect(h.run('garanzie', REFUND, { id }, t.staff)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await h.run('garanzie', REFUND, { id }, t.admin)).rimborsaGaranziaBloccata).toEqual({
      stato: 'released',
    });
    await expect(h.run('garanzie', REFUND, { id }, t.admin)).rejects.toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    const after = (await h.run('garanzie', STUCK, {}, t.staff)).garanzieBloccate as Array<{
      prenotazioneId: string;
    }>;
    expect(after.map((g) => g.prenotazioneId)).not.toContain(id);
  });

  it('unpaid at its due time: the booking cancelled (guarantee_not_provided), the guarantee released; once', async () => {
    const { id } = await book(3, 30);
    const g = await waitGuarantee(id);
    // The due time is kept by the scheduler, keyed by the booking.
    const jobs = new Scheduler({
      store: h.store,
      collection: DUE_JOBS_COLLECTION,
      handler: async () => ({ outcome: 'done' }),
    });
    const job = await jobs.get(trustedTenantId(t.tenantId), id);
    expect(job).toMatchObject({ state: 'pending', dueAt: g.scadenza });
    const deps = { store: h.store, subgraphs: h.hosted.client, serviceTokens, now: () => new Date() };
    const due = {
      tenantId: trustedTenantId(t.tenantId),
      key: id,
      dueAt: g.scadenza,
      payload: {},
      version: 1,
      effectId: 'e1',
      attempt: 1,
      signal: new AbortController().signal,
    };
    expect(await dueTimeJob(deps, due)).toEqual({ outcome: 'done' });
    const { prenotazione } = await h.run(
      'prenotazione',
      'query($id: ID!) { prenotazione(id: $id) { state motivo } }',
      { id },
      t.staff,
    );
    expect(prenotazione).toEqual({ state: 'annullata', motivo: 'guarantee_not_provided' });
    await waitGuarantee(id, (x) => x.stato === 'released');
    expect((await guaranteeOf(id))!.addebitato).toBe(0);
    expect(await dueTimeJob(deps, due)).toEqual({ outcome: 'skipped', reason: 'guarantee released' });
  });

  it('a guarantee in place by its due time: the due job does nothing', async () => {
    const { id } = await book(6, 30);
    const g = await waitGuarantee(id);
    await deliver(id, 'payment_intent.succeeded', g.stripeIntentId);
    const deps = { store: h.store, subgraphs: h.hosted.client, serviceTokens, now: () => new Date() };
    const due = {
      tenantId: trustedTenantId(t.tenantId),
      key: id,
      dueAt: g.scadenza,
      payload: {},
      version: 1,
      effectId: 'e2',
      attempt: 1,
      signal: new AbortController().signal,
    };
    expect(await dueTimeJob(deps, due)).toEqual({ outcome: 'skipped', reason: 'guarantee paid' });
    expect(await stateOf(id)).toBe('caparra_pagata');
  });

  it('a walk-in (starting now) is asked for no guarantee, so no due time cancels it', async () => {
    const { id } = await book(6, 0.05, false); // 3 minutes from now
    await new Promise((r) => setTimeout(r, 300));
    expect(await guaranteeOf(id)).toBeNull();
    expect(await stateOf(id)).toBe('pending');
  });

  it('a small party has no guarantee; an event for it is recorded and changes nothing', async () => {
    const { id } = await book(2, 30);
    await new Promise((r) => setTimeout(r, 300));
    expect(await guaranteeOf(id)).toBeNull();
    expect(await deliver(id, 'payment_intent.succeeded', 'pi_unknown')).toBe('recorded');
    expect(await stateOf(id)).toBe('pending');
  });

  it('the clientSecret goes to staff and the booking guest only; the payments token names one booking', async () => {
    const { id } = await book(3, 30);
    const other = await book(3, 31);
    await waitGuarantee(id);
    const guest = async (bookingId: string) =>
      `Bearer ${(await serviceTokens.guestToken({ tenantId: t.tenantId, bookingId, expiresAt: new Date(Date.now() + HOUR) })).token}`;
    // With the clientSecret, what the Payment Element is mounted with: the publishable key, and the account (none
    // connected here: the platform's).
    expect(await guaranteeOf(id, await guest(id))).toMatchObject({
      clientSecret: expect.stringMatching(/_secret_/),
      chiavePubblicabile: PUBLISHABLE_KEY,
      publishableKey: PUBLISHABLE_KEY,
      contoStripe: null,
      stripeAccount: null,
    });
    expect(await guaranteeOf(id, await guest(other.id))).toBeNull();
    const payments = `Bearer ${(await serviceTokens.paymentsToken({ tenantId: t.tenantId, bookingId: other.id })).token}`;
    const e = stripeEvent({
      id: 'evt_x',
      type: 'payment_intent.succeeded',
      intentId: 'pi_x',
      tenantId: t.tenantId,
      bookingId: id,
    });
    await expect(h.run('garanzie', EVENT, { e }, payments)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(h.run('garanzie', EVENT, { e }, t.admin)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // A payments token moves its booking to caparra_pagata or annullata only.
    await expect(
      h.run('prenotazione', STATE, { id: other.id, s: 'confermata' }, payments),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it("a connected account's guarantee is mounted on that account: its id with the clientSecret", async () => {
    const c = await newTenant();
    const rules = [{ type: 'deposit', minCovers: 1, amountPerCover: 1500, currency: 'eur' }];
    await h.run('garanzie', POLICY, { input: { rules } }, c.admin);
    await h.run(
      'garanzie',
      'mutation($a: String) { updateStripeAccount(accountId: $a) { stripeAccount } }',
      { a: 'acct_1Coperto' },
      c.admin,
    );
    const input = { covers: 2, bookingDate: localIn(40, true), customerName: 'Conti' };
    const { id } = (await h.run('prenotazione', CREATE, { input }, c.staff)).createPrenotazione as {
      id: string;
    };
    const seen = await vi.waitFor(
      async () => {
        const g = (await h.run('garanzie', GUARANTEE, { r: [{ __typename: 'Prenotazione', id }] }, c.staff))
          ._entities[0].garanzia as Record<string, unknown> | null;
        expect(g?.clientSecret).toBeTruthy();
        return g!;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(seen).toMatchObject({ contoStripe: 'acct_1Coperto', stripeAccount: 'acct_1Coperto' });
    expect(seen.publishableKey).toBe(PUBLISHABLE_KEY);
  });

  it('the policy: administrators only, every bad field named', async () => {
    await expect(h.run('garanzie', POLICY, { input: {} }, t.staff)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const bad = h.run('garanzie', POLICY, { input: { dueMinutes: 5, rules: [{ type: 'card' }] } }, t.admin);
    await expect(bad).rejects.toBeInstanceOf(AppError);
    await expect(bad).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('guarantees without a Stripe key', () => {
  it('refuses a policy with rules (409), accepts one without', async () => {
    const h = await hostGaranzie({ stripe: false });
    try {
      const t = await newTenant();
      const rules = [{ type: 'deposit', amountPerCover: 1000, currency: 'eur' }];
      await expect(h.run('garanzie', POLICY, { input: { rules } }, t.admin)).rejects.toMatchObject({
        code: 'STRIPE_NOT_CONFIGURED',
      });
      const { updatePoliticaGaranzie } = await h.run(
        'garanzie',
        POLICY,
        { input: { dueMinutes: 30 } },
        t.admin,
      );
      expect(updatePoliticaGaranzie).toMatchObject({ rules: [], dueMinutes: 30, stripeConfigured: false });
    } finally {
      await h.close();
    }
  });
});
