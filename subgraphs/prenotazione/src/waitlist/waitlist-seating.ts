import { AppError, NoTableAvailableError, WriteConflictError } from '@coperto/errors';
import type { Logger } from '@coperto/server-kit';
import type { CreateOutcome } from '../bookings/new-bookings.js';
import { importedId } from '../bookings/prenotazione-record.js';
import type { WaitlistEvent } from '../events.js';
import type { PrenotazioneInput } from '../generated/resolvers-types.js';
import type { SeatingChoice } from './waitlist-input.js';
import { turnFor, type QueuePlaces } from './waitlist-places.js';
import { quoteQueue, type QuoteTable } from './waitlist-quote.js';
import type { SeatingIntent, WaitlistRecord } from './waitlist-record.js';
import type { SeatingInputs } from './waitlist-seating-inputs.js';
import { requireEntry, type WaitlistStore } from './waitlist-store.js';

const MAX_CAS_ATTEMPTS = 8;
/** Statuses of a table with guests at it: seating a party there is refused. */
const TAKEN_STATUSES: ReadonlySet<string> = new Set(['occupied', 'open', 'payment_pending']);

/** The bookings side of seating a party: its walk-in booking, created idempotently from its externalId. */
export interface WalkInBookings {
  import(input: PrenotazioneInput): Promise<CreateOutcome>;
}

/** The externalId of the walk-in booking of a waitlist entry: its booking id is derived from it (importedId). */
export function walkInExternalId(entryId: string): string {
  return `waitlist:${entryId}`;
}

export interface WaitlistSeatingDeps {
  store: WaitlistStore;
  walkIns: WalkInBookings;
  seating: SeatingInputs;
  places: QueuePlaces;
  event: WaitlistEvent;
  now: () => Date;
  onEventsWritten: () => void;
  logger?: Logger | undefined;
}

/**
 * Seating a party, the steps after the intent is written on the entry (WaitlistService.seat): the walk-in
 * booking, the tables set occupied, the entry seated with its event; each step idempotent, so any reader of an
 * entry with an intent on it rolls the seating forward.
 */
export class WaitlistSeating {
  constructor(private readonly deps: WaitlistSeatingDeps) {}

  /** The tables the party is to take (the host's choice, checked, or the suggested fit free now). */
  async intent(entry: WaitlistRecord, choice: SeatingChoice): Promise<SeatingIntent> {
    const [tables, combinations, config] = await Promise.all([
      this.deps.seating.tables(),
      this.deps.seating.combinations(),
      this.deps.seating.seatingConfig(),
    ]);
    const turn = turnFor(config);
    const startsAt = this.stamp();
    let tableIds: string[];
    let combinationId: string | null = null;
    if (choice.kind === 'suggested') {
      const holds = await this.deps.places.holds(tables);
      const quote = quoteQueue({
        now: Date.parse(startsAt),
        tables,
        combinations,
        holds,
        queue: [{ id: entry.id, covers: entry.covers }],
        turnMinutes: turn,
        // seating now takes a table no booking holds: a late party's table is not given away before its no-show
        settings: { lateHoldMinutes: Number.POSITIVE_INFINITY },
      }).get(entry.id);
      if (!quote || quote.minutes !== 0)
        throw new NoTableAvailableError(
          entry.covers,
          startsAt,
          quote?.minutes == null
            ? `No table or combination holds ${entry.covers} covers`
            : `No fitting table is free now (the first in about ${quote.minutes} minutes)`,
        );
      tableIds = quote.tableIds;
      combinationId = quote.combinationId;
    } else {
      if (choice.kind === 'combination') {
        const combination = combinations.find((c) => c.id === choice.combinationId);
        // Not an active combination of the tenant: it cannot seat the party now (state, not shape: 409; a 404
        // here would say the waitlist entry in the path is missing).
        if (!combination) {
          throw new AppError(
            'TABLE_UNAVAILABLE',
            `Not an active combination of this restaurant: ${choice.combinationId}`,
            { combinationId: choice.combinationId },
          );
        }
        tableIds = [...combination.tableIds];
        combinationId = combination.id;
      } else {
        tableIds = choice.tableIds;
      }
      checkChosenTables(tableIds, tables);
    }
    return {
      prenotazioneId: importedId(walkInExternalId(entry.id)),
      tableIds,
      combinationId,
      startsAt,
      turnMinutes: turn(entry.covers),
    };
  }

  /** The steps after the intent; idempotent, so any reader may run them again. Returns the entry afterwards. */
  async finish(entry: WaitlistRecord): Promise<WaitlistRecord> {
    const intent = entry.seating!;
    try {
      await this.deps.walkIns.import({
        externalId: walkInExternalId(entry.id),
        customerName: entry.customerName,
        covers: entry.covers,
        customerPhone: entry.customerPhone,
        notes: entry.notes,
        dataOra: intent.startsAt,
        durationMinutes: intent.turnMinutes,
        tableIds: intent.tableIds,
        state: 'confermata',
      });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        await this.dropIntent(entry.id, intent);
      }
      throw error;
    }
    await this.deps.seating.setOccupied(intent.tableIds, entry.covers);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await requireEntry(this.deps.store, entry.id);
      if (current.seating?.prenotazioneId !== intent.prenotazioneId) return current; // finished by another
      const next: WaitlistRecord = {
        ...current,
        state: 'seated',
        seatedAt: intent.startsAt,
        prenotazioneId: intent.prenotazioneId,
        tableIds: [...intent.tableIds],
        seating: null,
        version: current.version + 1,
        updatedAt: this.stamp(),
      };
      const saved = await this.deps.store.replace(current.version, next, [
        this.deps.event('waitlist.seated', next, null),
      ]);
      if (!saved) continue;
      this.deps.onEventsWritten();
      return saved;
    }
    throw new WriteConflictError('VoceAttesa', entry.id);
  }

  /** Rolls a half-done seating forward on a read; a failure is logged and left for the next reader. */
  async recover(entry: WaitlistRecord): Promise<WaitlistRecord | null> {
    try {
      return await this.finish(entry);
    } catch (error) {
      this.deps.logger?.warn('a half-done waitlist seating could not be finished yet', {
        id: entry.id,
        error,
      });
      return null;
    }
  }

  /** A booking refused for good (e.g. its tables were booked meanwhile): the party is back to waiting. */
  private async dropIntent(id: string, intent: SeatingIntent): Promise<void> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await requireEntry(this.deps.store, id);
      if (current.seating?.prenotazioneId !== intent.prenotazioneId) return;
      const next = { ...current, seating: null, version: current.version + 1, updatedAt: this.stamp() };
      if (await this.deps.store.replace(current.version, next)) return;
    }
  }

  private stamp(): string {
    return this.deps.now().toISOString();
  }
}

/** Chosen tables must be active tables of the tenant without guests at them. */
function checkChosenTables(tableIds: readonly string[], tables: readonly QuoteTable[]): void {
  const byId = new Map(tables.map((t) => [t.id, t]));
  const unknown = tableIds.filter((id) => !byId.has(id));
  // Not active tables of the tenant: they cannot seat the party now (state, not shape: 409; a 404 here would
  // say the waitlist entry in the path is missing).
  if (unknown.length > 0) {
    throw new AppError('TABLE_UNAVAILABLE', `Not active tables of this restaurant: ${unknown.join(', ')}`, {
      tableIds: unknown,
    });
  }
  const taken = tableIds.filter((id) => TAKEN_STATUSES.has(byId.get(id)!.status));
  if (taken.length > 0) {
    throw new AppError('TABLE_UNAVAILABLE', `Table(s) with guests at them: ${taken.join(', ')}`, {
      tableIds: taken,
    });
  }
}
