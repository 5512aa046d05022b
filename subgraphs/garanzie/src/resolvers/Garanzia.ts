import type { GaranzieContext } from '../context.js';
import type { GaranziaRecord } from '../garanzia-record.js';
import type { GaranziaResolvers, PrenotazioneResolvers } from '../generated/resolvers-types.js';

/**
 * What the Payment Element is mounted with beside the clientSecret (the publishable key, and the connected account
 * the intent lives on): given with the clientSecret and to the same callers.
 */
const withClientSecret =
  (value: (g: GaranziaRecord, context: GaranzieContext) => string | null) =>
  (g: GaranziaRecord, _: unknown, context: GaranzieContext) =>
    context.seesGuarantee(g.id).clientSecret && g.clientSecret ? value(g, context) : null;
const publishableKey = withClientSecret((_, context) => context.publishableKey);
const stripeAccount = withClientSecret((g) => g.account);

export const Garanzia: GaranziaResolvers = {
  prenotazioneId: (g) => g.id,
  bookingId: (g) => g.id,
  type: (g) => g.tipo,
  mode: (g) => g.modo,
  status: (g) => g.stato,
  amount: (g) => g.importo,
  currency: (g) => g.valuta,
  dueAt: (g) => g.scadenza,
  clientSecret: (g, _, context) => (context.seesGuarantee(g.id).clientSecret ? g.clientSecret : null),
  chiavePubblicabile: publishableKey,
  publishableKey,
  contoStripe: stripeAccount,
  stripeAccount,
  stripeIntentId: (g, _, context) => (context.viewer.grant ? null : g.intentId),
  charged: (g) => g.addebitato,
  refunded: (g) => g.rimborsato,
  reason: (g) => g.motivo,
};

// Bookings are prenotazione's; garanzie adds the guarantee a rule gave them (one store read per request for N).
const guarantee: NonNullable<PrenotazioneResolvers['garanzia']> = (booking, _, context) =>
  context.seesGuarantee(booking.id).guarantee ? context.guaranteeOf.load(booking.id) : null;

export const Prenotazione: PrenotazioneResolvers = {
  __resolveReference: (reference) => reference,
  garanzia: guarantee,
  guarantee,
};
