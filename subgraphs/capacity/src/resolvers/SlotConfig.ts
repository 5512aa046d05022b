import type { ReminderRuleResolvers, SlotConfigResolvers } from '../generated/resolvers-types.js';
import { openingDays } from '../slot-config-view.js';

export const SlotConfig: SlotConfigResolvers = {
  openingHours: (config) => openingDays(config),
  promemoria: (config) => config.reminders,
  reminders: (config) => config.reminders,
};

export const ReminderRule: ReminderRuleResolvers = {
  orePrima: (rule) => rule.hoursBefore,
};
