// One line for one live event (`pnpm watch`): what a person following the room wants to read at a glance.

export interface LiveEvent {
  id: string;
  type: string;
  time: string;
  subject: string;
  data: Record<string, unknown>;
}

/** The subscription fields `pnpm watch` follows, with the fields each line shows. */
export const WATCHED_FIELDS = {
  tableStatusChanged: 'id name seats status previousStatus roomId',
  bookingCreated: 'id codice customerName covers bookingDate state tableIds',
  bookingUpdated: 'id codice customerName covers bookingDate state tableIds',
  bookingCancelled: 'id codice customerName covers bookingDate state tableIds motivo',
  waitlistChanged: 'id customerName covers state position quotedMinutes tableIds motivo',
} as const;

/** The subscription document of one field: the envelope and the fields its line shows. */
export function subscriptionDocument(field: keyof typeof WATCHED_FIELDS): string {
  return `subscription Watch_${field} { ${field} { id type time subject data { ${WATCHED_FIELDS[field]} } } }`;
}

const text = (value: unknown) => (value === null || value === undefined ? '-' : String(value));

/**
 * `2030-06-14T18:00:00.000Z tables.status T1 free → occupied (table 7f3a…)`, or
 * `… bookings.created PR-0001 Rossi ·3 2030-06-14T20:00 pending (booking 9c1d…)`, or
 * `… waitlist.added Rossi ·3 #2 quoted 25 min (waitlist 41aa…)`.
 */
export function eventLine(event: LiveEvent): string {
  const d = event.data;
  if (event.type === 'tables.status') {
    return `${event.time} ${event.type} ${text(d.name)} ${text(d.previousStatus)} → ${text(d.status)} (table ${event.subject})`;
  }
  const reason = d.motivo ? ` "${text(d.motivo)}"` : '';
  if (event.type.startsWith('waitlist.')) {
    const where = Array.isArray(d.tableIds) && d.tableIds.length > 0 ? ` at ${d.tableIds.join('+')}` : '';
    const quote =
      event.type === 'waitlist.added' ? ` #${text(d.position)} quoted ${text(d.quotedMinutes)} min` : '';
    return `${event.time} ${event.type} ${text(d.customerName)} ·${text(d.covers)}${quote}${where}${reason} (waitlist ${event.subject})`;
  }
  return (
    `${event.time} ${event.type} ${text(d.codice)} ${text(d.customerName)} ·${text(d.covers)} ` +
    `${text(d.bookingDate)} ${text(d.state)}${reason} (booking ${event.subject})`
  );
}
