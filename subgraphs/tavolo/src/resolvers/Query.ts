import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  tavoli: (_, args, context) => context.tavoli.list(args.filter ?? {}),
  tavolo: (_, args, context) => context.tavoli.get(args.id),
  verificaDisponibilita: async (_, args, context) => {
    const { tables, totalCapacity, combinations } = await context.availability.check(args.input);
    return {
      tavoliDisponibili: tables,
      availableTables: tables,
      capacitaTotale: totalCapacity,
      totalCapacity,
      combinazioniDisponibili: combinations,
      availableCombinations: combinations,
    };
  },
  combinazioni: (_, args, context) => context.combinazioni.list(args),
  combinazione: (_, args, context) => context.combinazioni.get(args.id),
};
