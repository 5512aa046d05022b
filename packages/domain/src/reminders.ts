/** One reminder rule of a tenant (capacity's config `promemoria|reminders`): a reminder this many hours before. */
export interface ReminderRule {
  hoursBefore: number;
}

/** Until a tenant saves its own rules: one reminder a day before (capacity's default; promemoria's until told). */
export const DEFAULT_REMINDER_RULES: readonly ReminderRule[] = Object.freeze([
  Object.freeze({ hoursBefore: 24 }),
]);
