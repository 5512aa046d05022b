import type { CapacityContext } from '../context.js';

export const Query = {
  slotConfig: (_: unknown, __: unknown, context: CapacityContext) => context.slotConfig.get(),
  productionCategories: (_: unknown, __: unknown, context: CapacityContext) => context.categories.list(),
  productionCategory: (_: unknown, args: { id: string }, context: CapacityContext) =>
    context.categories.get(args.id),
  slots: (_: unknown, args: { date: string }, context: CapacityContext) => context.slots.slots(args.date),
};
