import type { SlotConfig as SlotConfigView } from '../slot-config-record.js';

export const SlotConfig = {
  openingHours: (config: SlotConfigView) =>
    config.openingHours.map((intervals, weekday) => ({ weekday, intervals })),
};
