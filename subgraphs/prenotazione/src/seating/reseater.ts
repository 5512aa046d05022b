import { TableUnavailableError } from '@coperto/errors';
import type { Logger } from '@coperto/server-kit';
import type { SeatCandidate } from './assignment.js';
import type { PrenotazioneRecord } from '../bookings/prenotazione-record.js';
import type { PrenotazioneStore } from '../bookings/prenotazione-store.js';
import type { BookingEvent } from '../events.js';
import { bookingClaim } from './booking-owner.js';
import { endsAt } from './holds.js';
import { planReseat, type OwnedSpan, type ReseatPlan } from './reseat-plan.js';
import { reseatSearchOf } from './reseat-snapshot.js';
import type { PlacementOwner, Placed, Reseat, SeatPlacement } from './seat-placement.js';
import type { SeatingSources } from './seating-sources.js';
import type { TableClaims } from './table-claims.js';
import { mayHaveBeenApplied } from './write-outcome.js';

export interface ReseaterDeps {
  claims: TableClaims;
  placement: SeatPlacement;
  store: PrenotazioneStore;
  sources: SeatingSources;
  now: () => Date;
  event: BookingEvent;
  onEventsWritten: () => void;
  logger?: Logger | undefined;
}

/** One planned move with its new record and the claim that holds its destination. */
interface ClaimedMove {
  before: PrenotazioneRecord;
  next: PrenotazioneRecord;
  claimId: string | null;
}

/**
 * Re-seating (docs/seating.md "Re-seating"): places a party that found nothing free by moving future
 * auto-assigned bookings of the same room to other free fitting places. Order: claim every moved booking's
 * destination (its next claim revision), then the new party's place over the bookings being moved away; any
 * refusal releases every claim made and gives up. Then each move is written by compare-and-set with its
 * bookings.updated event (`previousTableIds`); a move that lost a race undoes the moves already written.
 */
export class Reseater {
  constructor(private readonly deps: ReseaterDeps) {}

  /** The re-seating step of auto-assignment, when the tenant's settings allow it (else undefined). */
  async whenEnabled(): Promise<Reseat | undefined> {
    const config = await this.deps.sources.config();
    if (!config.reseat) return undefined;
    return (owner, fitting) => this.reseat(owner, fitting, config.reseatFreezeMinutes);
  }

  async reseat(
    owner: PlacementOwner,
    fitting: readonly SeatCandidate[],
    freezeMinutes: number,
  ): Promise<Placed | null> {
    if (fitting.length === 0) return null;
    const plan = await this.plan(owner, fitting, freezeMinutes);
    return plan ? this.execute(owner, plan.plan, plan.bookings) : null;
  }

  private async plan(owner: PlacementOwner, fitting: readonly SeatCandidate[], freezeMinutes: number) {
    const [tables, combinations] = await Promise.all([
      this.deps.sources.activeTables(),
      this.deps.sources.activeCombinations(),
    ]);
    const allTables = tables.map((t) => t.id);
    // holds of the whole local day on every table (moved bookings overlap the window, so lie within a day of it)
    const day = this.deps.placement.day(owner.localDate);
    const held = await this.deps.claims.heldIn(
      allTables,
      new Date(day.start - 86_400_000).toISOString(),
      new Date(day.end + 86_400_000).toISOString(),
    );
    const spans = new Map<string, OwnedSpan[]>();
    for (const h of held) {
      if (h.entry.bookingId === owner.id) continue;
      const span = {
        ownerId: h.entry.bookingId,
        start: Date.parse(h.entry.start),
        end: Date.parse(h.entry.end),
      };
      spans.set(h.tableId, [...(spans.get(h.tableId) ?? []), span]);
    }
    const ownerIds = [
      ...new Set(held.filter((h) => h.entry.owner !== 'opzione').map((h) => h.entry.bookingId)),
    ];
    const bookings = new Map((await this.deps.store.findByIds(ownerIds)).map((b) => [b.id, b]));
    // the same search the availability search runs over its snapshot (a time it offers is one re-seated here)
    const snapshot = {
      tables,
      combinations,
      holdsOf: (tableId: string) => spans.get(tableId) ?? [],
      bookings,
      frozenUntil: this.deps.now().getTime() + freezeMinutes * 60_000,
    };
    const window = { start: Date.parse(owner.start), end: Date.parse(owner.end) };
    const plan = planReseat(
      reseatSearchOf(snapshot, { ownerId: owner.id, covers: owner.covers, window, day }, fitting),
    );
    return plan ? { plan, bookings } : null;
  }

  private async execute(
    owner: PlacementOwner,
    plan: ReseatPlan,
    bookings: ReadonlyMap<string, PrenotazioneRecord>,
  ): Promise<Placed | null> {
    const claimed: ClaimedMove[] = [];
    let targetClaim: string | null = null;
    const releaseTarget = async () => {
      if (!targetClaim) return;
      await this.deps.claims
        .release({ id: owner.id, rev: owner.rev, tableIds: plan.target.tableIds }, targetClaim)
        .catch(() => {});
    };
    const releaseUnwritten = async (moves: readonly ClaimedMove[]) => {
      await Promise.all(
        moves.map((m) => (m.claimId ? this.release(m.next, m.claimId) : Promise.resolve())),
      ).catch(() => {});
    };
    try {
      for (const move of plan.moves) {
        const before = bookings.get(move.bookingId)!;
        const next: PrenotazioneRecord = {
          ...before,
          tableIds: [...move.to.tableIds],
          combinationId: move.to.kind === 'combination' ? move.to.id : null,
          claimRev: before.claimRev + 1,
          version: before.version + 1,
          updatedAt: this.deps.now().toISOString(),
        };
        // A chain: the bookings leaving these tables are moved (written) before this one, so their holds do
        // not block its claim.
        const claimId = await this.deps.claims.claim({ ...bookingClaim(next), ignoring: move.after ?? [] });
        claimed.push({ before, next, claimId });
      }
      targetClaim = await this.deps.claims.claim({
        ...owner,
        tableIds: plan.target.tableIds,
        ignoring: plan.moves.map((m) => m.bookingId),
      });
    } catch (error) {
      await releaseTarget();
      await releaseUnwritten(claimed);
      if (error instanceof TableUnavailableError) return null;
      throw error;
    }
    const written: ClaimedMove[] = [];
    for (const move of claimed) {
      let unknown: unknown = null;
      const saved = await this.deps.store
        .replace(move.before.version, move.next, [
          this.deps.event('bookings.updated', move.next, { previousTableIds: move.before.tableIds }),
        ])
        .catch((error: unknown) => {
          if (mayHaveBeenApplied(error)) unknown = error;
          return null;
        });
      if (unknown !== null) {
        // The store stopped answering: this move may be written. Its claim stays (its holds protect the booking
        // if it was moved, and go stale if not); the party is not placed, the moves after it are not written.
        await releaseTarget();
        await releaseUnwritten(claimed.slice(written.length + 1));
        await this.undo(written);
        throw unknown;
      }
      if (!saved) {
        // The booking changed meanwhile (or the store failed): free the party's place, undo what was written,
        // free the claims of the moves not written.
        await releaseTarget();
        // the claims not written first: a chain's claim may sit on the tables a written move goes back to
        await releaseUnwritten(claimed.slice(written.length));
        await this.undo(written);
        return null;
      }
      written.push({ ...move, next: saved });
    }
    this.deps.onEventsWritten();
    await Promise.all(
      written.map((m) =>
        this.deps.claims.releaseOlderRevisions(m.next.id, m.next.claimRev, [
          ...m.before.tableIds,
          ...m.next.tableIds,
        ]),
      ),
    );
    this.deps.logger?.info('re-seated bookings to place a party', {
      moved: written.map((m) => ({ id: m.next.id, from: m.before.tableIds, to: m.next.tableIds })),
    });
    return {
      tableIds: [...plan.target.tableIds],
      combinationId: plan.target.kind === 'combination' ? plan.target.id : null,
      assegnazione: 'auto',
      claimId: targetClaim,
    };
  }

  /**
   * Moves already written go back to their tables (best effort: their old holds are still in the agendas, so
   * the claim at the next revision succeeds unless the process dies; a move that cannot be undone stands, a
   * valid booking on a free fitting table).
   */
  private async undo(written: readonly ClaimedMove[]): Promise<void> {
    for (const move of [...written].reverse()) {
      try {
        const back: PrenotazioneRecord = {
          ...move.next,
          tableIds: [...move.before.tableIds],
          combinationId: move.before.combinationId ?? null,
          claimRev: move.next.claimRev + 1,
          version: move.next.version + 1,
          updatedAt: this.deps.now().toISOString(),
        };
        const claimId = await this.deps.claims.claim(bookingClaim(back));
        const saved = await this.deps.store.replace(move.next.version, back, [
          this.deps.event('bookings.updated', back, { previousTableIds: move.next.tableIds }),
        ]);
        if (!saved && claimId) await this.release(back, claimId);
        if (saved) {
          this.deps.onEventsWritten();
          await this.deps.claims.releaseOlderRevisions(back.id, back.claimRev, [
            ...move.next.tableIds,
            ...back.tableIds,
          ]);
        }
      } catch (error) {
        this.deps.logger?.warn('undoing a re-seating move failed; the move stands', {
          id: move.next.id,
          error,
        });
      }
    }
  }

  private release(record: PrenotazioneRecord, claimId: string): Promise<void> {
    return this.deps.claims.release(bookingClaim(record), claimId);
  }
}
