import type { TavoloResolvers } from '../generated/resolvers-types.js';

/** Tables belong to the tavolo subgraph; prenotazione adds their bookings. */
export const Tavolo: TavoloResolvers = {
  __resolveReference: (reference) => reference,
  // A service token reaches a table only through its own booking: it sees no other booking on it.
  prenotazioni: async (tavolo, args, context) =>
    context.rights.visible(await context.prenotazioni.forTable(tavolo.id, args.data)),
};
