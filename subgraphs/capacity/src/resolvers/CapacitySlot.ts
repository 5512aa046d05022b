import type { CapacitySlotResolvers } from '../generated/resolvers-types.js';

export const CapacitySlot: CapacitySlotResolvers = {
  startsAt: (slot) => slot.startsAt.toISOString(),
  endsAt: (slot) => slot.endsAt.toISOString(),
};
