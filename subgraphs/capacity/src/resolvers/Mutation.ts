import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  updateSlotConfig: (_, args, context) => context.slotConfig.update(args.input),
  createProductionCategory: (_, args, context) => context.categories.create(args.input),
  updateProductionCategory: (_, args, context) => context.categories.update(args.id, args.input),
  deleteProductionCategory: (_, args, context) => context.categories.delete(args.id),
};
