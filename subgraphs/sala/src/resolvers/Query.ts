import type { SalaContext } from '../context.js';

export const Query = {
  sale: (_: unknown, __: unknown, context: SalaContext) => context.sale.list(),
  sala: (_: unknown, args: { id: string }, context: SalaContext) => context.sale.get(args.id),
};
