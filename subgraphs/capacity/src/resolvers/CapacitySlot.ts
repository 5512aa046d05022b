import type { CapacitySlot as CapacitySlotView } from '../slots.js';

export const CapacitySlot = {
  startsAt: (slot: CapacitySlotView) => slot.startsAt.toISOString(),
  endsAt: (slot: CapacitySlotView) => slot.endsAt.toISOString(),
};
