import type { SlotConfigResolvers } from '../generated/resolvers-types.js';

export const SlotConfig: SlotConfigResolvers = {
  openingHours: (config) => config.openingHours.map((intervals, weekday) => ({ weekday, intervals })),
  // The seating settings' defaults (decisions "Seating"); their storage and input arrive with the seat-tavolo
  // branch, which replaces these three resolvers.
  turnTimes: () => [],
  reseat: () => true,
  reseatFreezeMinutes: () => 60,
};
