// The Stripe calls of guarantees through the official SDK against stripe-mock (Stripe's own API mock, which checks
// every request against Stripe's OpenAPI description): each call is accepted (the SDK throws on any 4xx or 5xx).
import { describe, expect, it } from 'vitest';
import { startStripeMock, stripeMockUrl } from '@coperto/testkit';
import type { GaranziaRecord } from '../src/garanzia-record.js';
import {
  createStripePayments,
  idempotencyKey,
  StripeRefusal,
  type IntentPlan,
} from '../src/stripe-payments.js';

const settings = () => ({ secretKey: 'sk_test_coperto', apiBase: new URL(stripeMockUrl()) });
const plan = (over: Partial<IntentPlan>): IntentPlan => ({
  tenantId: 't1',
  bookingId: 'b1',
  tentativo: 1,
  modo: 'deposit',
  importo: 4000,
  valuta: 'eur',
  account: null,
  ...over,
});
const guarantee = (over: Partial<GaranziaRecord>) =>
  ({ id: 'b1', tentativo: 1, account: null, valuta: 'eur', modo: 'hold', ...over }) as GaranziaRecord;

describe('Stripe payments against stripe-mock', () => {
  it('is null without a secret key (no guarantees at all)', () => {
    expect(createStripePayments({ secretKey: null, apiBase: null })).toBeNull();
  });

  it('makes a deposit, a hold and a saved card, on the platform or a connected account', async () => {
    const stripe = createStripePayments(settings())!;
    const deposit = await stripe.createIntent(plan({}));
    expect(deposit).toMatchObject({ intentId: expect.stringMatching(/^pi_/), customerId: null });
    expect(deposit.clientSecret).toMatch(/_secret_/);
    const hold = await stripe.createIntent(plan({ modo: 'hold', account: 'acct_1Coperto' }));
    expect(hold.intentId).toMatch(/^pi_/);
    const saved = await stripe.createIntent(plan({ modo: 'saved_card' }));
    expect(saved).toMatchObject({
      intentId: expect.stringMatching(/^seti_/),
      customerId: expect.stringMatching(/^cus_/),
    });
  });

  it('captures, cancels, refunds and charges a saved card', async () => {
    const stripe = createStripePayments(settings())!;
    const { intentId } = await stripe.createIntent(plan({ modo: 'hold' }));
    await stripe.settle('t1', guarantee({ intentId }), { op: 'capture', amount: 2000 });
    await stripe.settle('t1', guarantee({ intentId, account: 'acct_1Coperto' }), { op: 'cancel_intent' });
    await stripe.settle('t1', guarantee({ intentId, modo: 'deposit' }), { op: 'refund', amount: 1000 });
    const saved = await stripe.createIntent(plan({ modo: 'saved_card' }));
    const card = guarantee({
      modo: 'saved_card',
      intentId: saved.intentId,
      customerId: saved.customerId,
      paymentMethodId: 'pm_card_visa',
    });
    await stripe.settle('t1', card, { op: 'charge_saved_card', amount: 1500 });
    await stripe.settle('t1', card, { op: 'cancel_intent' });
    await stripe.settle('t1', card, { op: 'none' });
  });

  it('turns a request Stripe refuses into a StripeRefusal (not retried)', async () => {
    // A stripe-mock of its own: the run's shared one fails the run on any refusal (testkit's stripe-mock-watch).
    const own = await startStripeMock();
    try {
      const stripe = createStripePayments({ secretKey: 'sk_test_coperto', apiBase: new URL(own.url) })!;
      // An amount that is not an integer: stripe-mock answers 400 as Stripe would.
      await expect(stripe.createIntent(plan({ importo: 12.5 }))).rejects.toBeInstanceOf(StripeRefusal);
    } finally {
      await own.stop();
    }
  });

  it('keys every call by tenant, booking, attempt and step', () => {
    expect(idempotencyKey('t1', 'b1', 2, 'settle-capture')).toBe('coperto:t1:b1:2:settle-capture');
  });
});
