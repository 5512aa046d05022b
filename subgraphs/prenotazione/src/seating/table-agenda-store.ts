import { DuplicateKeyError, type TenantCollection, type TenantStore } from '@coperto/store';

export const AGENDA_COLLECTION = 'tavoli_agenda';

/** One booking's hold on a table: [start, end) as UTC instants. */
export interface AgendaEntry {
  bookingId: string;
  /** The booking's claim revision: a change of time or tables claims anew with the next revision. */
  rev: number;
  start: string;
  end: string;
  /** When the claim was written (to recognise claims orphaned by a crash). */
  at: string;
  /** Unique per claim attempt, so an attempt that fails removes its own entries only (absent on old holds). */
  claimId?: string;
  /**
   * 'opzione' when the holder is an option (collection `opzioni`, same id space as the booking it may become);
   * absent for a booking's hold.
   */
  owner?: 'opzione';
}

/** The agenda of one table: every active booking's hold, in ONE document, so a claim is one atomic write. */
export interface AgendaRecord {
  id: string;
  entries: AgendaEntry[];
}

/**
 * Double-booking protection without transactions (reliability.md 4.2 option A): a claim is a conditional
 * `$push` on the table's agenda document that only matches when no other booking's entry overlaps
 * [start, end). With `upsert`, a missing agenda is created; an existing agenda whose filter did not match
 * makes the upsert collide on the id (DuplicateKeyError), which means "overlap". The database decides every
 * race; touching ends do not overlap.
 */
export class TableAgendaStore {
  private readonly agenda: TenantCollection<AgendaRecord>;

  constructor(tenantStore: TenantStore) {
    this.agenda = tenantStore.collection<AgendaRecord>(AGENDA_COLLECTION);
  }

  /**
   * True when the claim was written, false when another booking holds an overlapping entry. `ignoring`: owners
   * whose entries do not block (re-seating claims a table over the bookings it is moving away in the same step).
   */
  async claim(tableId: string, entry: AgendaEntry, ignoring: readonly string[] = []): Promise<boolean> {
    try {
      const saved = await this.agenda.findOneAndUpdate(
        {
          id: tableId,
          entries: {
            $not: {
              $elemMatch: {
                bookingId:
                  ignoring.length === 0 ? { $ne: entry.bookingId } : { $nin: [entry.bookingId, ...ignoring] },
                start: { $lt: entry.end },
                end: { $gt: entry.start },
              },
            },
          },
        },
        { $push: { entries: entry } },
        { upsert: true },
      );
      return saved !== null;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Entries of other bookings that overlap the window (to explain or repair a refused claim). */
  async overlapping(tableId: string, entry: AgendaEntry): Promise<AgendaEntry[]> {
    const record = await this.agenda.findById(tableId);
    return (record?.entries ?? []).filter(
      (e) => e.bookingId !== entry.bookingId && e.start < entry.end && e.end > entry.start,
    );
  }

  /** Removes a booking's entries, all of them or those older than `belowRev`. */
  async release(tableId: string, bookingId: string, belowRev?: number): Promise<void> {
    await this.agenda.findOneAndUpdate(
      { id: tableId },
      { $pull: { entries: belowRev === undefined ? { bookingId } : { bookingId, rev: { $lt: belowRev } } } },
    );
  }

  /**
   * Removes one exact entry (a stale claim found while repairing, or an attempt's own claim): by its claimId
   * when it has one, else by booking and revision.
   */
  async removeEntry(
    tableId: string,
    entry: Pick<AgendaEntry, 'bookingId' | 'rev' | 'claimId'>,
  ): Promise<void> {
    const match = entry.claimId ? { claimId: entry.claimId } : { bookingId: entry.bookingId, rev: entry.rev };
    await this.agenda.findOneAndUpdate({ id: tableId }, { $pull: { entries: match } });
  }

  /** The agenda of one table (empty when it has none). */
  async entries(tableId: string): Promise<AgendaEntry[]> {
    return (await this.agenda.findById(tableId))?.entries ?? [];
  }

  /** The agendas of N tables in one read (by primary key): the availability check's source. */
  async agendas(tableIds: readonly string[]): Promise<AgendaRecord[]> {
    return tableIds.length === 0 ? [] : this.agenda.findByIds(tableIds);
  }

  /** Drops entries that ended before `cutoff` (they can no longer conflict with anything bookable). */
  async prune(tableId: string, cutoff: string): Promise<void> {
    await this.agenda.findOneAndUpdate({ id: tableId }, { $pull: { entries: { end: { $lt: cutoff } } } });
  }
}
