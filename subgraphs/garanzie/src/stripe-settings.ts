import { z } from 'zod';

/** How this process reaches Stripe; `secretKey` null = guarantees cannot be asked for (policies with rules: 409). */
export interface StripeSettings {
  secretKey: string | null;
  /** STRIPE_API_BASE: another API host (tests: stripe-mock); null = api.stripe.com. */
  apiBase: URL | null;
  /** The platform's publishable key (pk_…), handed with a clientSecret to mount Stripe's Payment Element. */
  publishableKey: string | null;
  /** GUARANTEES_POLL_MS: the longest wait between two looks for guarantees past their due time; null = 5 s. */
  duePollMs: number | null;
}

/** The Stripe variables garanzie reads (its process's config.ts; the embedded gateway's config.ts). */
export const stripeSettingsShape = {
  /** The platform's secret key (sk_live_… / sk_test_…); unset = no guarantees. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The Stripe API's base URL, e.g. http://127.0.0.1:12111 for stripe-mock; unset = api.stripe.com. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /** The platform's publishable key (pk_live_… / pk_test_…; not a secret): the booking page's payment step needs it. */
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(live|test)_[A-Za-z0-9]{1,200}$/, 'must be a Stripe publishable key pk_live_… or pk_test_…')
    .optional(),
  GUARANTEES_POLL_MS: z.coerce.number().int().min(50).max(60_000).optional(),
};

export function stripeSettingsOf(config: {
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_API_BASE?: string | undefined;
  STRIPE_PUBLISHABLE_KEY?: string | undefined;
  GUARANTEES_POLL_MS?: number | undefined;
}): StripeSettings {
  return {
    secretKey: config.STRIPE_SECRET_KEY ?? null,
    apiBase: config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null,
    publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
    duePollMs: config.GUARANTEES_POLL_MS ?? null,
  };
}
