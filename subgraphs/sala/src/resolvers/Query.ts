import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  sale: (_, __, context) => context.sale.list(),
  sala: (_, args, context) => context.sale.get(args.id),
};
