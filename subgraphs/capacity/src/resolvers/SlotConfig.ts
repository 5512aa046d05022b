import type { SlotConfigResolvers } from '../generated/resolvers-types.js';

export const SlotConfig: SlotConfigResolvers = {
  openingHours: (config) => config.openingHours.map((intervals, weekday) => ({ weekday, intervals })),
};
