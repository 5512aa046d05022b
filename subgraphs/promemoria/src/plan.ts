import type { ReminderRule } from '@coperto/domain';
import { isActive, type BookingFacts } from './booking-facts.js';

/** A reminder a booking should have: its scheduler key and due time. */
export interface PlannedReminder {
  key: string;
  hoursBefore: number;
  dueAt: string;
}

/** The scheduler key of a booking's reminder: `<bookingId>/<hours>`. */
export function reminderKey(bookingId: string, hoursBefore: number): string {
  return `${bookingId}/${hoursBefore}`;
}

export function dueAtOf(startsAt: string, hoursBefore: number): string {
  return new Date(Date.parse(startsAt) - hoursBefore * 3_600_000).toISOString();
}

/**
 * The reminders `booking` should have under `rules`: none unless it is active; each due its start minus the
 * rule's hours, kept only when that is not before `notBefore` (when the booking got its start, or the rules were
 * changed: a booking made or moved 3 hours ahead gets no 24-hour reminder at once). One due while the service was
 * down stays planned: the scheduler runs it on start, and the handler skips it if the booking has started.
 */
export function plannedReminders(
  booking: Pick<BookingFacts, 'id' | 'state' | 'startsAt'>,
  rules: readonly ReminderRule[],
  notBefore: string,
): PlannedReminder[] {
  if (!isActive(booking)) return [];
  return rules
    .map((rule) => ({
      key: reminderKey(booking.id, rule.hoursBefore),
      hoursBefore: rule.hoursBefore,
      dueAt: dueAtOf(booking.startsAt, rule.hoursBefore),
    }))
    .filter((reminder) => reminder.dueAt >= notBefore)
    .sort((a, b) => (a.dueAt < b.dueAt ? -1 : 1));
}

/** What to do with a reminder whose time has come. */
export type DueDecision = { send: true } | { send: false; reason: string };

export function dueDecision(
  booking: Pick<BookingFacts, 'state' | 'startsAt'> | null,
  reminder: { hoursBefore: number; dueAt: string },
  now: Date,
): DueDecision {
  if (!booking) return { send: false, reason: 'booking_unknown' };
  if (!isActive(booking)) return { send: false, reason: 'booking_not_active' };
  if (Date.parse(booking.startsAt) <= now.getTime()) return { send: false, reason: 'booking_started' };
  // A claim of a reminder planned for an earlier start (the move re-planned it meanwhile) sends nothing.
  if (dueAtOf(booking.startsAt, reminder.hoursBefore) !== reminder.dueAt)
    return { send: false, reason: 'booking_moved' };
  return { send: true };
}
