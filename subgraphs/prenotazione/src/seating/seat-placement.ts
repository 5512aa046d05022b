import { NoTableAvailableError, TableUnavailableError, ValidationError } from '@coperto/errors';
import { localDayBounds } from '@coperto/domain';
import { rankCandidates, seatCandidates, type SeatCandidate, type Span } from './assignment.js';
import type { Assegnazione } from '../generated/resolvers-types.js';
import type { SeatingCombination, SeatingSources } from './seating-sources.js';
import type { ClaimOwner, HeldEntry, TableClaims } from './table-claims.js';

/** How a booking or option asks for its tables: at most one of the three (checked with the input). */
export interface PlacementRequest {
  tableIds?: readonly string[] | null | undefined;
  combinationId?: string | null | undefined;
  autoAssign?: boolean | null | undefined;
}

/** Where a party was placed, and the claim that holds it (null when nothing was claimed). */
export interface Placed {
  tableIds: string[];
  combinationId: string | null;
  assegnazione: Assegnazione;
  claimId: string | null;
}

/** The owner to claim for, without tables yet, plus what assignment needs to know about the party. */
export interface PlacementOwner extends Omit<ClaimOwner, 'tableIds'> {
  covers: number;
  localDate: string;
}

/** Called when auto-assignment found nothing free: may re-seat other bookings to place the party. */
export type Reseat = (owner: PlacementOwner, fitting: readonly SeatCandidate[]) => Promise<Placed | null>;

/** At most this many ranked places are tried by one auto-assignment (each a claim that may lose a race). */
export const MAX_ASSIGN_ATTEMPTS = 20;

export interface SeatPlacementDeps {
  claims: TableClaims;
  sources: SeatingSources;
  timeZone: string;
}

/**
 * Turns a placement request into claimed tables: the given tables, a combination's tables, or the best free
 * fit (assignment.ts) claimed with fallback to the next when the best is taken meanwhile.
 */
export class SeatPlacement {
  constructor(private readonly deps: SeatPlacementDeps) {}

  /** Resolves the request and claims its tables for the owner's window (`claim: false`: resolve only). */
  async place(
    owner: PlacementOwner,
    request: PlacementRequest,
    options: { claim: boolean; reseat?: Reseat | undefined },
  ): Promise<Placed> {
    if (request.autoAssign) {
      if (!options.claim) {
        throw new ValidationError([{ field: 'autoAssign', message: 'needs an active booking state' }]);
      }
      return this.assign(owner, options.reseat);
    }
    let tableIds: string[] = [];
    let combinationId: string | null = null;
    if (request.combinationId != null) {
      const combination = await this.combinationFor(request.combinationId, owner.covers);
      tableIds = [...combination.tableIds];
      combinationId = combination.id;
    } else if (request.tableIds && request.tableIds.length > 0) {
      await this.requireTables(request.tableIds);
      tableIds = [...request.tableIds];
    }
    const claimId = options.claim ? await this.deps.claims.claim({ ...owner, tableIds }) : null;
    return { tableIds, combinationId, assegnazione: 'manual', claimId };
  }

  /**
   * The combination, which must exist in the tenant, be active and hold the party (minCovers <= covers <=
   * maxCovers); else 400 naming combinationId (a body naming what does not exist is the seed's 400, as for
   * tableIds: 404 is for the resource the URL names).
   */
  async combinationFor(id: string, covers: number): Promise<SeatingCombination> {
    const found = await this.deps.sources.combination(id);
    const refuse = (message: string) => new ValidationError([{ field: 'combinationId', message }]);
    if (!found) throw refuse(`combination ${id} does not exist`);
    if (!found.attivo) throw refuse(`combination ${id} is not active`);
    if (covers < found.minCovers || covers > found.maxCovers) {
      throw refuse(`combination ${id} seats ${found.minCovers} to ${found.maxCovers} covers, not ${covers}`);
    }
    return found;
  }

  /** tableIds must exist in the caller's tenant: asked to tavolo through its API (one call for N tables). */
  async requireTables(tableIds: readonly string[]): Promise<void> {
    if (tableIds.length === 0) return;
    const missing = await this.deps.sources.unknownTables(tableIds);
    // The seed's answer: a body naming a table that does not exist is a 400 naming tableIds (404 is for the
    // resource the URL names).
    if (missing.length > 0) {
      throw new ValidationError([{ field: 'tableIds', message: `unknown table(s): ${missing.join(', ')}` }]);
    }
  }

  /**
   * Auto-assignment: the free single tables that fit, ranked, each claimed in turn until one is won; then the
   * same with combinations (read only when no single table was won: they are filled last); then re-seating;
   * none: 409 NO_TABLE_AVAILABLE.
   */
  async assign(owner: PlacementOwner, reseat?: Reseat): Promise<Placed> {
    const tables = await this.deps.sources.activeTables();
    const singles = seatCandidates(tables, [], owner.covers);
    const won = await this.claimBest(owner, singles);
    if (won) return won;
    const combinations = seatCandidates([], await this.deps.sources.activeCombinations(), owner.covers);
    const wonCombination = await this.claimBest(owner, combinations);
    if (wonCombination) return wonCombination;
    const reseated = reseat ? await reseat(owner, [...singles, ...combinations]) : null;
    if (reseated) return reseated;
    throw new NoTableAvailableError(owner.covers, owner.start);
  }

  /** The live holds of the owner's local day on `tableIds`, by table (the owner's own holds left out). */
  async dayHolds(owner: PlacementOwner, tableIds: readonly string[]): Promise<Map<string, HeldEntry[]>> {
    const day = this.day(owner.localDate);
    const held = await this.deps.claims.heldIn(
      tableIds,
      new Date(day.start).toISOString(),
      new Date(day.end).toISOString(),
    );
    const byTable = new Map<string, HeldEntry[]>();
    for (const h of held) {
      if (h.entry.bookingId === owner.id) continue;
      byTable.set(h.tableId, [...(byTable.get(h.tableId) ?? []), h]);
    }
    return byTable;
  }

  /** The owner's local day as epoch milliseconds. */
  day(localDate: string): Span {
    const bounds = localDayBounds(localDate, this.deps.timeZone);
    return { start: bounds.start.getTime(), end: bounds.end.getTime() };
  }

  private async claimBest(owner: PlacementOwner, candidates: SeatCandidate[]): Promise<Placed | null> {
    if (candidates.length === 0) return null;
    const holds = await this.dayHolds(owner, [...new Set(candidates.flatMap((c) => c.tableIds))]);
    const spans = (tableId: string) =>
      (holds.get(tableId) ?? []).map((h) => ({
        start: Date.parse(h.entry.start),
        end: Date.parse(h.entry.end),
      }));
    const window = { start: Date.parse(owner.start), end: Date.parse(owner.end) };
    const ranked = rankCandidates(candidates, owner.covers, window, this.day(owner.localDate), spans);
    for (const candidate of ranked.slice(0, MAX_ASSIGN_ATTEMPTS)) {
      try {
        const claimId = await this.deps.claims.claim({ ...owner, tableIds: candidate.tableIds });
        return {
          tableIds: [...candidate.tableIds],
          combinationId: candidate.kind === 'combination' ? candidate.id : null,
          assegnazione: 'auto',
          claimId,
        };
      } catch (error) {
        if (!(error instanceof TableUnavailableError)) throw error;
      }
    }
    return null;
  }
}
