import type { TavoloResolvers } from '../generated/resolvers-types.js';

// Tables are tavolo's; rapporti adds the history its consumer keeps from their tables.status events.
export const Tavolo: TavoloResolvers = {
  __resolveReference: (reference) => reference,
  storico: (table, args, context) => context.history.of(table.id, args.limite),
  history: (table, args, context) => context.history.of(table.id, args.limite),
};
