import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  ospiti: (_, args, context) => context.ospiti.search(args),
  ospite: async (_, args, context) => {
    const guest = await context.ospiti.get(args.id);
    // A guest merged into another is gone under its own id.
    return guest?.id === args.id ? guest : null;
  },
  prenotazioniOspite: async (_, args, context) => {
    const guest = await context.ospiti.get(args.id);
    return guest?.id === args.id ? context.bookingsOf(guest.id) : null;
  },
  ospitiDuplicati: (_, __, context) => context.ospiti.duplicates(),
  esportaOspite: (_, args, context) => context.privacy.export(args.id),
  impostazioniOspiti: (_, __, context) => context.ospiti.settings(),
};
