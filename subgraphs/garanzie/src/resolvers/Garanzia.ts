import type { GaranziaResolvers, PrenotazioneResolvers } from '../generated/resolvers-types.js';

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
