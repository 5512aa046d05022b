import { randomUUID } from 'node:crypto';
import { TableUnavailableError } from '@coperto/errors';
import type { Logger } from '@coperto/server-kit';
import {
  entryVerdict,
  IN_FLIGHT_CLAIM_MS,
  overlapsWindow,
  PAST_HOLD_MARGIN_MS,
  TIDY_MAX_BOOKINGS,
  type HoldOwners,
} from './holds.js';
import type { OpzioneStore } from '../options/opzione-store.js';
import type { PrenotazioneStore } from '../bookings/prenotazione-store.js';
import type { AgendaEntry, TableAgendaStore } from './table-agenda-store.js';

/** Who claims tables for a window: a booking (at its claim revision) or an option. */
export interface ClaimOwner {
  id: string;
  rev: number;
  tableIds: readonly string[];
  start: string;
  end: string;
  owner?: 'opzione';
  /** Owners whose holds do not block this claim (the bookings a re-seating moves away in the same step). */
  ignoring?: readonly string[];
}

/** One non-stale hold on a table: the agenda entry with its table. */
export interface HeldEntry {
  tableId: string;
  entry: AgendaEntry;
}

export interface TableClaimsDeps {
  agenda: TableAgendaStore;
  bookings: PrenotazioneStore;
  options: OpzioneStore;
  now: () => Date;
  logger?: Logger | undefined;
}

/**
 * The tables' agendas as bookings and options use them: claiming all of an owner's tables or none, the
 * verdict on every hold (live, in flight, stale; holds.ts), repair of stale holds, and release.
 */
export class TableClaims {
  constructor(private readonly deps: TableClaimsDeps) {}

  /**
   * Claims every table of the owner for [start, end), in id order. If one is taken the ones already claimed are
   * released and the claim is refused with TABLE_UNAVAILABLE. Returns the attempt's claimId.
   */
  async claim(owner: ClaimOwner): Promise<string | null> {
    if (owner.tableIds.length === 0) return null;
    const tableIds = [...new Set(owner.tableIds)].sort();
    const ignoring = owner.ignoring ?? [];
    if (tableIds.length > 1) {
      await this.refuseIfHeld(tableIds, [owner.id, ...ignoring], owner.start, owner.end);
    }
    const claimId = randomUUID();
    const entry: AgendaEntry = {
      bookingId: owner.id,
      rev: owner.rev,
      start: owner.start,
      end: owner.end,
      at: this.stamp(),
      claimId,
      ...(owner.owner ? { owner: owner.owner } : {}),
    };
    const claimed: string[] = [];
    for (const tableId of tableIds) {
      await this.tidy(tableId, owner.id);
      if (!(await this.claimOrRepair(tableId, { ...entry, at: this.stamp() }, ignoring))) {
        await Promise.all(claimed.map((t) => this.deps.agenda.removeEntry(t, entry))).catch(() => {});
        throw new TableUnavailableError([tableId]);
      }
      claimed.push(tableId);
    }
    return claimId;
  }

  /** Removes one claim attempt's entries (and only those: another attempt of the same owner keeps its own). */
  async release(owner: Pick<ClaimOwner, 'id' | 'rev' | 'tableIds'>, claimId: string): Promise<void> {
    await Promise.all(
      owner.tableIds.map((t) =>
        this.deps.agenda.removeEntry(t, { bookingId: owner.id, rev: owner.rev, claimId }),
      ),
    );
  }

  /** After a move: removes the booking's holds of older revisions on its old and new tables (best effort). */
  async releaseOlderRevisions(bookingId: string, claimRev: number, tables: readonly string[]): Promise<void> {
    await this.bestEffort(
      Promise.all([...new Set(tables)].map((t) => this.deps.agenda.release(t, bookingId, claimRev))),
    );
  }

  /** Frees every hold of the owner on its tables (best effort: stale holds are repaired later anyway). */
  async releaseAll(ownerId: string, tableIds: readonly string[]): Promise<void> {
    await this.bestEffort(Promise.all(tableIds.map((t) => this.deps.agenda.release(t, ownerId))));
  }

  /**
   * The non-stale holds on `tableIds` overlapping [from, to): read from the tables' agendas by primary key,
   * then their owners by id.
   */
  async heldIn(tableIds: readonly string[], from: string, to: string): Promise<HeldEntry[]> {
    const candidates = (await this.deps.agenda.agendas([...new Set(tableIds)])).flatMap((agenda) =>
      agenda.entries
        .filter((e) => overlapsWindow(e, from, to))
        .map((entry) => ({ tableId: agenda.id, entry })),
    );
    return this.notStale(candidates);
  }

  /** The entries among `held` whose verdict is not stale (owners read in one go). */
  async notStale(held: readonly HeldEntry[]): Promise<HeldEntry[]> {
    if (held.length === 0) return [];
    const owners = await this.ownersOf(held.map((h) => h.entry));
    const inFlightAfter = this.inFlightAfter();
    const now = this.stamp();
    return held.filter((h) => entryVerdict(h.entry, h.tableId, owners, inFlightAfter, now) !== 'stale');
  }

  /** The bookings and options that wrote `entries`. */
  async ownersOf(entries: readonly AgendaEntry[]): Promise<HoldOwners> {
    const bookingIds = [...new Set(entries.filter((e) => e.owner !== 'opzione').map((e) => e.bookingId))];
    const optionIds = [...new Set(entries.filter((e) => e.owner === 'opzione').map((e) => e.bookingId))];
    const [bookings, options] = await Promise.all([
      bookingIds.length ? this.deps.bookings.findByIds(bookingIds) : [],
      this.deps.options.findByIds(optionIds),
    ]);
    return {
      bookings: new Map(bookings.map((b) => [b.id, b])),
      options: new Map(options.map((o) => [o.id, o])),
    };
  }

  /**
   * An owner of several tables first reads their agendas and is refused, claiming nothing, when another
   * owner's live hold covers the window on any of them. Without it, claiming in id order took the free tables
   * before reaching the held one and released them only after: for that moment a booking that the
   * availability check had rightly offered one of them was refused (found by the torture run). Only a truly
   * concurrent claim can still make a multi-table attempt release what it took.
   */
  private async refuseIfHeld(
    tableIds: string[],
    notBlocking: readonly string[],
    start: string,
    end: string,
  ): Promise<void> {
    const blocking = (await this.deps.agenda.agendas(tableIds)).flatMap((agenda) =>
      agenda.entries
        .filter((e) => !notBlocking.includes(e.bookingId) && e.start < end && e.end > start)
        .map((entry) => ({ tableId: agenda.id, entry })),
    );
    const held = (await this.notStale(blocking)).map((b) => b.tableId);
    if (held.length > 0) throw new TableUnavailableError([...new Set(held)].sort());
  }

  /**
   * Keeps an agenda from growing forever, whenever a claim touches it: drops holds that ended more than
   * PAST_HOLD_MARGIN_MS ago and stale holds (see holds.ts) of at most TIDY_MAX_BOOKINGS owners.
   */
  private async tidy(tableId: string, claimant: string): Promise<void> {
    const cutoff = new Date(this.deps.now().getTime() - PAST_HOLD_MARGIN_MS).toISOString();
    const entries = await this.deps.agenda.entries(tableId);
    if (entries.some((e) => e.end < cutoff)) await this.deps.agenda.prune(tableId, cutoff);
    const others = entries.filter((e) => e.end >= cutoff && e.bookingId !== claimant);
    const ids = new Set([...new Set(others.map((e) => e.bookingId))].slice(0, TIDY_MAX_BOOKINGS));
    const looked = others.filter((e) => ids.has(e.bookingId));
    if (looked.length === 0) return;
    const owners = await this.ownersOf(looked);
    const inFlightAfter = this.inFlightAfter();
    const now = this.stamp();
    const stale = looked.filter((e) => entryVerdict(e, tableId, owners, inFlightAfter, now) === 'stale');
    await Promise.all(stale.map((e) => this.deps.agenda.removeEntry(tableId, e)));
  }

  /**
   * A refused claim is retried after removing stale entries in the way: holds of bookings that are no longer
   * active or were rescheduled, of options expired, released or used, and claims whose owner never appeared
   * (a crash between claim and insert).
   */
  private async claimOrRepair(
    tableId: string,
    entry: AgendaEntry,
    ignoring: readonly string[],
  ): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.deps.agenda.claim(tableId, entry, ignoring)) return true;
      const blocking = (await this.deps.agenda.overlapping(tableId, entry)).filter(
        (e) => !ignoring.includes(e.bookingId),
      );
      const live = new Set(
        (await this.notStale(blocking.map((e) => ({ tableId, entry: e })))).map((h) => h.entry),
      );
      const stale = blocking.filter((e) => !live.has(e));
      if (stale.length === 0) return false;
      await Promise.all(stale.map((e) => this.deps.agenda.removeEntry(tableId, e)));
    }
    return false;
  }

  /** Releasing is repaired later if it fails (stale claims are removed when they block a new claim). */
  private async bestEffort(work: Promise<unknown>): Promise<void> {
    try {
      await work;
    } catch (error) {
      this.deps.logger?.warn('releasing table claims failed; they will be repaired on the next conflict', {
        error,
      });
    }
  }

  /** Claims written after this instant are still in flight (see holdVerdict). */
  private inFlightAfter(): string {
    return new Date(this.deps.now().getTime() - IN_FLIGHT_CLAIM_MS).toISOString();
  }

  private stamp(): string {
    return this.deps.now().toISOString();
  }
}
