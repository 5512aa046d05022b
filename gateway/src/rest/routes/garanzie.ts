import { tagged } from '../rest-route.js';

/** Guarantee policies, the Stripe account and stuck money (docs/payments.md). */
export const garanzieRoutes = tagged('Garanzie', [
  {
    method: 'GET',
    path: '/api/garanzie/politica',
    operation: 'GetPoliticaGaranzie',
    docs: {
      summary: 'Read the guarantee policy',
      description:
        'Staff. The rules (the first matching a booking asks its guest for a deposit or a card), the minutes to ' +
        'provide it, the cancellation tiers and the no-show percent; `stripeConfigured` says whether guarantees ' +
        'can be taken at all.',
    },
    field: 'politicaGaranzie',
  },
  {
    method: 'PUT',
    path: '/api/garanzie/politica',
    operation: 'UpdatePoliticaGaranzie',
    docs: {
      summary: 'Replace the guarantee policy',
      description:
        'Administrator only. The whole policy (what is not sent takes its default: no rules, 60 minutes, no ' +
        'tiers, 100 % for a no-show). Amounts in minor units (cents) per cover. Rules while no Stripe key is ' +
        'configured: 409 `STRIPE_NOT_CONFIGURED`, nothing stored. English names win over Italian ones. No two ' +
        'cancellation tiers have the same `minHours|oreAlmeno` (a rule between rows): 400 naming `penalties`.',
      body: { into: 'input' },
      errors: ['STRIPE_NOT_CONFIGURED'],
      example: {
        rules: [
          { type: 'deposit', minCovers: 8, amountPerCover: 2000, currency: 'eur' },
          {
            type: 'card',
            minCovers: 4,
            weekdays: [5, 6],
            from: '19:00',
            to: '23:00',
            amountPerCover: 3000,
            currency: 'eur',
          },
        ],
        dueMinutes: 60,
        penalties: [
          { minHours: 48, percent: 0 },
          { minHours: 24, percent: 50 },
          { minHours: 0, percent: 100 },
        ],
        noShowPercent: 100,
      },
    },
    field: 'updatePoliticaGaranzie',
  },
  {
    method: 'PUT',
    path: '/api/garanzie/stripe',
    operation: 'UpdateStripeAccount',
    docs: {
      summary: "Set the tenant's Stripe connected account",
      description:
        "Administrator only. `accountId` (`acct_…`): guarantees are then taken on the restaurant's own Stripe " +
        "account (Stripe Connect direct charges); null: on the platform's.",
      body: {},
      example: { accountId: 'acct_1Coperto' },
    },
    field: 'updateStripeAccount',
  },
  {
    method: 'GET',
    path: '/api/garanzie/bloccate',
    operation: 'ListGaranzieBloccate',
    docs: {
      summary: 'List stuck guarantees',
      description:
        'Staff. Guarantees whose money arrived for a booking already cancelled or ended (`stato|status` ' +
        '`stuck`), oldest first: refund them from Stripe (`stripeIntentId`).',
    },
    field: 'garanzieBloccate',
  },
  {
    method: 'POST',
    path: '/api/garanzie/bloccate/:id/rimborsa',
    operation: 'RimborsaGaranziaBloccata',
    docs: {
      summary: "Give a stuck guarantee's money back",
      description:
        'Administrator only. `id`: the booking. A held card is let go (`released`), a deposit refunded in full ' +
        '(`refunded`); a guarantee that is not stuck: 409 `INVALID_TRANSITION`.',
      errors: ['INVALID_TRANSITION'],
    },
    field: 'rimborsaGaranziaBloccata',
    notFound: 'Garanzia',
  },
]);
