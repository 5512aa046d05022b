import type { CategoryInput, CategoryPatch } from '../category-service.js';
import type { CapacityContext } from '../context.js';
import type { SlotConfigInput } from '../slot-config-service.js';

export const Mutation = {
  updateSlotConfig: (_: unknown, args: { input: SlotConfigInput }, context: CapacityContext) =>
    context.slotConfig.update(args.input),
  createProductionCategory: (_: unknown, args: { input: CategoryInput }, context: CapacityContext) =>
    context.categories.create(args.input),
  updateProductionCategory: (
    _: unknown,
    args: { id: string; input: CategoryPatch },
    context: CapacityContext,
  ) => context.categories.update(args.id, args.input),
  deleteProductionCategory: (_: unknown, args: { id: string }, context: CapacityContext) =>
    context.categories.delete(args.id),
};
