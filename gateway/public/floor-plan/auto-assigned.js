// Bookings whose tables Coperto chose (autoAssign): marked wherever the page lists a table's bookings, because
// re-seating may move them to other tables to make room (docs/seating.md).

/** The tooltip of the "auto" badge. */
export const AUTO_HINT = 'chosen by Coperto; may be moved to make room';

/** Whether the service chose the booking's tables (`assignment`, alias `assegnazione`: auto | manual). */
export const isAutoAssigned = (booking) => (booking.assignment ?? booking.assegnazione) === 'auto';

/** The badge beside a booking in the table panel's list (HTML). */
export function autoBadge() {
  const badge = document.createElement('span');
  badge.className = 'auto-badge';
  badge.title = AUTO_HINT;
  badge.textContent = 'auto';
  return badge;
}
