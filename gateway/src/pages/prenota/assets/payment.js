// The guarantee's payment step (docs/booking-page.md, "Paying the guarantee"): Stripe's Payment Element mounted with
// the booking's clientSecret, on the platform's publishable key and the restaurant's connected account. Stripe.js is
// the one script the pages load from elsewhere: Stripe requires it to come from js.stripe.com (never bundled or
// self-hosted), and only this step loads it, only when a guarantee is due.

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/** A guarantee the guest can still give: asked for, with what the Payment Element needs. */
export function payable(guarantee) {
  return (
    !!guarantee &&
    guarantee.stato === 'requested' &&
    typeof guarantee.clientSecret === 'string' &&
    typeof guarantee.publishableKey === 'string'
  );
}

/** Minor units in the guarantee's currency, as the guest reads them: 4000 eur → "40,00 €" / "€40.00". */
export function moneyText(minorUnits, currency, lang) {
  const format = new Intl.NumberFormat(lang === 'it' ? 'it-IT' : 'en-GB', {
    style: 'currency',
    currency: currency.toUpperCase(),
  });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** digits);
}

/** The due instant in the browser's own time: "28/11/26, 20:15". */
export function dueText(instant, lang) {
  return new Intl.DateTimeFormat(lang === 'it' ? 'it-IT' : 'en-GB', {
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(new Date(instant));
}

let loading;

/** Stripe.js, loaded once from js.stripe.com (rejects when it cannot be reached). */
function loadStripeJs() {
  loading ??= new Promise((resolve, reject) => {
    if (window.Stripe) return resolve(window.Stripe);
    const script = document.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.onload = () =>
      window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js did not load'));
    script.onerror = () => {
      loading = undefined; // a later try may reach it
      script.remove();
      reject(new Error('Stripe.js could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

/**
 * Mounts the Payment Element into `container` and returns `pay()`, which confirms it: a deposit or a held card with
 * `confirmPayment`, a card saved for later with `confirmSetup`. `pay()` resolves with Stripe's error message, or null
 * when Stripe accepted (the service hears of it by Stripe's webhook, and the booking becomes `caparra_pagata`).
 */
export async function mountPayment(container, guarantee, lang) {
  const Stripe = await loadStripeJs();
  const stripe = Stripe(
    guarantee.publishableKey,
    guarantee.stripeAccount ? { stripeAccount: guarantee.stripeAccount } : undefined,
  );
  const elements = stripe.elements({ clientSecret: guarantee.clientSecret, locale: lang });
  elements.create('payment').mount(container);
  return async function pay() {
    // Card payments complete here; a method that must leave the page comes back to it (the token is in the fragment).
    const options = { elements, redirect: 'if_required', confirmParams: { return_url: location.href } };
    const result =
      guarantee.modo === 'saved_card'
        ? await stripe.confirmSetup(options)
        : await stripe.confirmPayment(options);
    return result.error ? result.error.message || 'error' : null;
  };
}
