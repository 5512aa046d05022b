import type { TavoloResolvers } from '../generated/resolvers-types.js';

/** Tables belong to the tavolo subgraph; prenotazione adds their bookings. */
export const Tavolo: TavoloResolvers = {
  __resolveReference: (reference) => reference,
  prenotazioni: (tavolo, args, context) => context.prenotazioni.forTable(tavolo.id, args.data),
};
