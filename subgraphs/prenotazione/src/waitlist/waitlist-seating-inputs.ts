import type { Viewer } from '@coperto/auth';
import type { SubgraphClient } from '@coperto/server-kit';
import { WaitlistSeatTableDocument, WaitlistTablesDocument } from '../generated/tavolo-calls.js';
import type { SeatingConfig, SeatingSources } from '../seating/seating-sources.js';
import type { QuoteCombination, QuoteTable } from './waitlist-quote.js';

/** The tenant's seating settings the waitlist needs: the turn times and the default meal duration. */
export type TurnTimeConfig = Pick<SeatingConfig, 'defaultMealMinutes' | 'turnTimes'>;

/**
 * What the waitlist reads from, and writes to, the other subgraphs, with the caller's token: the tables with
 * their statuses (tavolo), and through the seating sources bookings use tavolo's active combinations and
 * capacity's turn times (one cached read per tenant, shared with assignment).
 */
export interface SeatingInputs {
  /** The tenant's active tables with their statuses. */
  tables(): Promise<QuoteTable[]>;
  /** The tenant's active combinations of tables. */
  combinations(): Promise<QuoteCombination[]>;
  seatingConfig(): Promise<TurnTimeConfig>;
  /** Sets each table's status to occupied with the party's covers (idempotent: occupied again stays so). */
  setOccupied(tableIds: readonly string[], covers: number): Promise<void>;
}

/** The seating inputs from tavolo and capacity through their GraphQL APIs (the subgraph client). */
export function subgraphSeatingInputs(deps: {
  subgraphs: SubgraphClient;
  viewer: Viewer;
  /** tavolo's combinations and capacity's seating configuration (seating-sources.ts). */
  seating: SeatingSources;
}): SeatingInputs {
  const authorization = `Bearer ${deps.viewer.token}`;
  return {
    async tables() {
      const { tavoli } = await deps.subgraphs.request('tavolo', WaitlistTablesDocument, {}, authorization);
      return tavoli.map((t) => ({
        id: t.id,
        seats: t.seats,
        active: t.attivo,
        status: t.status,
        statusSince: t.updatedAt,
        pax: t.pax,
      }));
    },
    async combinations() {
      return (await deps.seating.activeCombinations()).map((c) => ({
        id: c.id,
        tableIds: c.tableIds,
        minCovers: c.minCovers,
        maxCovers: c.maxCovers,
        active: c.attivo,
      }));
    },
    seatingConfig: () => deps.seating.config(),
    async setOccupied(tableIds, covers) {
      for (const id of tableIds) {
        await deps.subgraphs.request('tavolo', WaitlistSeatTableDocument, { id, pax: covers }, authorization);
      }
    },
  };
}
