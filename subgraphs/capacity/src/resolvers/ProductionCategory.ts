import type { ProductionCategoryResolvers } from '../generated/resolvers-types.js';

export const ProductionCategory: ProductionCategoryResolvers = {
  __resolveReference: (reference, context) => context.categoryById.load(reference.id),
};
