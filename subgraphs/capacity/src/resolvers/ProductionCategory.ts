import type { CapacityContext } from '../context.js';

export const ProductionCategory = {
  __resolveReference: (reference: { id: string }, context: CapacityContext) =>
    context.categoryById.load(reference.id),
};
