/** A Stripe event as Stripe sends it (the parts garanzie reads), for an intent the service made. */
export function stripeEvent(options: {
  id: string;
  type: string;
  intentId: string;
  tenantId: string;
  bookingId: string;
  paymentMethod?: string;
}): string {
  return JSON.stringify({
    id: options.id,
    object: 'event',
    type: options.type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: options.intentId,
        object: options.intentId.startsWith('seti_') ? 'setup_intent' : 'payment_intent',
        metadata: { tenantId: options.tenantId, bookingId: options.bookingId, tentativo: '1' },
        payment_method: options.paymentMethod ?? null,
      },
    },
  });
}
