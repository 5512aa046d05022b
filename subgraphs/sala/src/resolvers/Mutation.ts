import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  createSala: (_, args, context) => context.sale.create(args.input),
  updateSala: (_, args, context) => context.sale.update(args.id, args.input),
  deleteSala: (_, args, context) => context.sale.delete(args.id),
};
