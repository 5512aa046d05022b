import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  slotConfig: (_, __, context) => context.slotConfig.get(),
  productionCategories: (_, __, context) => context.categories.list(),
  productionCategory: (_, args, context) => context.categories.get(args.id),
  slots: (_, args, context) => context.slots.slots(args.date),
};
