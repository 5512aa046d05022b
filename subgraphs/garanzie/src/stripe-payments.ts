import Stripe from 'stripe';
import type { GaranziaRecord } from './garanzia-record.js';
import type { Modo } from './rules.js';
import type { Operazione } from './state-flow.js';
import type { StripeSettings } from './stripe-settings.js';

/** What garanzie asks Stripe to set up for one booking's guarantee. */
export interface IntentPlan {
  tenantId: string;
  bookingId: string;
  tentativo: number;
  modo: Modo;
  importo: number;
  valuta: string;
  account: string | null;
}

export interface CreatedIntent {
  intentId: string;
  clientSecret: string;
  customerId: string | null;
}

/** The metadata every intent carries: the webhook finds its tenant and booking from it. */
export function intentMetadata(plan: Pick<IntentPlan, 'tenantId' | 'bookingId' | 'tentativo'>) {
  return { tenantId: plan.tenantId, bookingId: plan.bookingId, tentativo: String(plan.tentativo) };
}

/** Stripe's idempotency key of one call: the booking, its attempt and the step (the same call twice = one effect). */
export function idempotencyKey(tenantId: string, bookingId: string, tentativo: number, step: string): string {
  return `coperto:${tenantId}:${bookingId}:${tentativo}:${step}`;
}

/** The Stripe calls of guarantees (official SDK), or null when no key is configured. */
export interface StripePayments {
  createIntent(plan: IntentPlan): Promise<CreatedIntent>;
  /**
   * Carries out a settlement's operation on the guarantee's intent (idempotent per booking, attempt and `step`:
   * `settle` for the booking's end, `stuck` for staff giving stuck money back).
   */
  settle(
    tenantId: string,
    g: GaranziaRecord,
    operation: Operazione,
    step?: 'settle' | 'stuck',
  ): Promise<void>;
  /**
   * Sets the amount of the guarantee's PaymentIntent (a deposit or hold not yet paid); nothing for a saved card (a
   * SetupIntent has no amount). Idempotent per record version: a redelivery of the same change sends the same key.
   */
  updateAmount(tenantId: string, g: GaranziaRecord, amount: number): Promise<void>;
}

export function createStripePayments(
  settings: Pick<StripeSettings, 'secretKey' | 'apiBase'>,
): StripePayments | null {
  if (!settings.secretKey) return null;
  const base = settings.apiBase;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });

  return {
    async createIntent(plan) {
      const key = (step: string) => idempotencyKey(plan.tenantId, plan.bookingId, plan.tentativo, step);
      const options = (step: string): Stripe.RequestOptions => ({
        idempotencyKey: key(step),
        ...(plan.account ? { stripeAccount: plan.account } : {}),
      });
      const metadata = intentMetadata(plan);
      return withStripeErrors(async () => {
        if (plan.modo === 'saved_card') {
          const customer = await stripe.customers.create({ metadata }, options('customer'));
          const intent = await stripe.setupIntents.create(
            {
              customer: customer.id,
              usage: 'off_session',
              metadata,
              automatic_payment_methods: { enabled: true },
            },
            options('setup'),
          );
          return { intentId: intent.id, clientSecret: intent.client_secret!, customerId: customer.id };
        }
        const intent = await stripe.paymentIntents.create(
          {
            amount: plan.importo,
            currency: plan.valuta,
            metadata,
            automatic_payment_methods: { enabled: true },
            ...(plan.modo === 'hold' ? { capture_method: 'manual' as const } : {}),
          },
          options('intent'),
        );
        return { intentId: intent.id, clientSecret: intent.client_secret!, customerId: null };
      });
    },

    async updateAmount(tenantId, g, amount) {
      if (g.modo === 'saved_card' || !g.intentId) return;
      const intentId = g.intentId;
      await withStripeErrors(() =>
        stripe.paymentIntents.update(
          intentId,
          { amount },
          {
            idempotencyKey: idempotencyKey(tenantId, g.id, g.tentativo, `amount-v${g.version}`),
            ...(g.account ? { stripeAccount: g.account } : {}),
          },
        ),
      );
    },

    async settle(tenantId, g, operation, step = 'settle') {
      if (operation.op === 'none' || !g.intentId) return;
      const options: Stripe.RequestOptions = {
        idempotencyKey: idempotencyKey(tenantId, g.id, g.tentativo, `${step}-${operation.op}`),
        ...(g.account ? { stripeAccount: g.account } : {}),
      };
      const intentId = g.intentId;
      await withStripeErrors(async () => {
        switch (operation.op) {
          case 'cancel_intent':
            if (g.modo === 'saved_card') await stripe.setupIntents.cancel(intentId, {}, options);
            else await stripe.paymentIntents.cancel(intentId, {}, options);
            return;
          case 'capture':
            await stripe.paymentIntents.capture(intentId, { amount_to_capture: operation.amount }, options);
            return;
          case 'refund':
            await stripe.refunds.create({ payment_intent: intentId, amount: operation.amount }, options);
            return;
          case 'charge_saved_card':
            await stripe.paymentIntents.create(
              {
                amount: operation.amount,
                currency: g.valuta,
                customer: g.customerId!,
                payment_method: g.paymentMethodId!,
                off_session: true,
                confirm: true,
                metadata: {
                  ...intentMetadata({ tenantId, bookingId: g.id, tentativo: g.tentativo }),
                  fee: 'true',
                },
              },
              options,
            );
            return;
        }
      });
    },
  };
}

/** Stripe refused the request itself (a card declined, bad parameters): nothing to retry. */
export class StripeRefusal extends Error {
  constructor(
    message: string,
    readonly stripeCode: string | null,
  ) {
    super(message);
    this.name = 'StripeRefusal';
  }
}

/** A refusal becomes StripeRefusal; a connection error or Stripe's own 5xx stays an error (retried later). */
async function withStripeErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (
      error instanceof Stripe.errors.StripeCardError ||
      error instanceof Stripe.errors.StripeInvalidRequestError
    ) {
      throw new StripeRefusal(error.message, error.code ?? null);
    }
    throw error;
  }
}
