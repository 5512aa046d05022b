import { mayHaveWritten, type HistoryEntry } from './history.js';

/**
 * How long a prenotazione process may go on using seating settings older than a change (its SeatingConfigCache
 * forgets them when capacity's change event reaches it, within the outbox relay's latency): a search and a booking
 * served by two instances may see a turn-time change at different times.
 */
export const SETTINGS_STALE_MS = 10_000;

/** Requests that never change which tables are free for a window (locks and statuses are not the agendas). */
const HARMLESS = new Set([
  'lock',
  'unlock',
  'forceUnlock',
  'status',
  'floorRead',
  'check',
  'search',
  'waitAdd',
  'waitNotify',
  'waitCancel',
]);

/**
 * "A time the search offers can be booked" (docs/availability.md): a booking with autoAssign of the time a
 * search offered (its durationMinutes when shortened) is refused only when something that may change the tenant's
 * free tables ran between the search and the booking's answer (any write or claim attempt of the tenant; a
 * settings change up to SETTINGS_STALE_MS before). Any refusal (4xx) without such a request is a violation: the
 * search offered what the booking path would not seat.
 */
export function checkOfferedTimesBookable(history: readonly HistoryEntry[]): string[] {
  const violations: string[] = [];
  for (const book of history) {
    const i = book.intent;
    if (i.kind !== 'autoBook' || i.searchId === undefined) continue;
    if (book.status < 400 || book.status >= 500) continue;
    const search = history[i.searchId];
    if (!search) continue;
    const interfering = history.some((e) => {
      if (e.tenant !== book.tenant || e.id === search.id || e.id === book.id) return false;
      if (HARMLESS.has(e.intent.kind) || e.sentAt >= book.answeredAt) return false;
      if (e.intent.kind === 'setSeating') {
        return mayHaveWritten(e) && e.answeredAt > search.sentAt - SETTINGS_STALE_MS;
      }
      // a refused attempt may still have held claims while it ran: any overlap counts
      return e.answeredAt > search.sentAt;
    });
    if (!interfering) {
      violations.push(
        `search #${search.id} offered ${i.start} for ${i.covers} (${i.minutes ?? 'turn time'} min), the booking #${book.id} right after got ${book.status} ${book.response?.error?.code ?? ''}`,
      );
    }
  }
  return violations;
}
