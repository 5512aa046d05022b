import { InputChecks } from '@coperto/domain';
import type { TableClaims } from './table-claims.js';

/** At most this many tables per window query (the availability check asks for its candidate tables). */
export const WINDOW_MAX_TABLES = 5000;

/** One table held by an active booking during (part of) a window: what the availability check reads. */
export interface TableHold {
  tableId: string;
  prenotazioneId: string;
  startsAt: string;
  endsAt: string;
}

/** A window query: the tables among `tableIds` held during [from, to), ISO 8601 instants. */
export interface HoldsWindow {
  from: string;
  to: string;
  tableIds: readonly string[];
}

/** The holds in a window, as the waitlist's quote and tavolo's availability check read them. */
export interface TableHoldsReader {
  holdsInWindow(window: HoldsWindow): Promise<TableHold[]>;
}

/** The tables' agendas read by window (`occupazioniTavoli`): the same holds the double-booking guard keeps. */
export class AgendaService implements TableHoldsReader {
  constructor(private readonly claims: TableClaims) {}

  /**
   * The tables among `tableIds` held during [from, to) by an active booking (or a claim in flight), with each
   * hold's window: read from the tables' agendas by primary key (one read for N tables, no scan of the day),
   * then the holding bookings by id. Each hold's end is its booking's stored effective duration.
   */
  async holdsInWindow(args: HoldsWindow): Promise<TableHold[]> {
    const checks = new InputChecks();
    const from = instant(args.from);
    const to = instant(args.to);
    if (!from) checks.add('from', 'must be an ISO 8601 instant');
    if (!to) checks.add('to', 'must be an ISO 8601 instant');
    if (from && to && from >= to) checks.add('to', 'must be after from');
    if (args.tableIds.length > WINDOW_MAX_TABLES) checks.add('tableIds', `at most ${WINDOW_MAX_TABLES}`);
    checks.throwIfAny();
    return (await this.claims.heldIn(args.tableIds, from!, to!)).map((c) => ({
      tableId: c.tableId,
      prenotazioneId: c.entry.bookingId,
      startsAt: c.entry.start,
      endsAt: c.entry.end,
    }));
  }
}

/** A UTC instant from an ISO 8601 date-time with Z or an offset; null otherwise. */
function instant(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
