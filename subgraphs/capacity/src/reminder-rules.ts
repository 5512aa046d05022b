import { preferEnglish, type InputChecks, type ReminderRule } from '@coperto/domain';

/** The bounds of `promemoria|reminders` (also the REST schema's, gateway/src/rest/input-constraints.ts). */
export const REMINDER_LIMITS = { hours: { min: 1, max: 720 }, maxRules: 5 } as const;

/** A rule as sent: either name; the English one wins when both are sent. */
export interface ReminderRuleSent {
  hoursBefore?: number | null;
  orePrima?: number | null;
}

/**
 * Adds an issue for every problem of the rules sent (`reminders`, `reminders.<i>.hoursBefore`): at most 5, each
 * a whole number of hours 1..720 under one of its names, no two the same. Returns them largest first, or null
 * when an issue was added.
 */
export function checkReminderRules(
  sent: readonly ReminderRuleSent[],
  checks: InputChecks,
): ReminderRule[] | null {
  const before = checks.issues.length;
  const { min, max } = REMINDER_LIMITS.hours;
  if (sent.length > REMINDER_LIMITS.maxRules)
    checks.add('reminders', `must have at most ${REMINDER_LIMITS.maxRules} rules`);
  const hours = sent.map((rule, i) => {
    const value = preferEnglish(rule.hoursBefore, rule.orePrima);
    if (value === undefined) checks.add(`reminders.${i}.hoursBefore`, 'is required (or orePrima)');
    else checks.intInRange(`reminders.${i}.hoursBefore`, value, min, max);
    return value;
  });
  if (new Set(hours).size !== hours.length) checks.add('reminders', 'two rules have the same hoursBefore');
  if (checks.issues.length > before) return null;
  return (hours as number[]).sort((a, b) => b - a).map((hoursBefore) => ({ hoursBefore }));
}

/** Whether two lists of rules (each largest first) are the same. */
export function sameRules(a: readonly ReminderRule[], b: readonly ReminderRule[]): boolean {
  return a.length === b.length && a.every((rule, i) => rule.hoursBefore === b[i]!.hoursBefore);
}
