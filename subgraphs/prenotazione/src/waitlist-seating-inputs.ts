import type { Viewer } from '@coperto/auth';
import type { TurnTime } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import type { QuoteCombination, QuoteTable, QuoteTableStatus } from './waitlist-quote.js';

/** The tenant's seating settings the waitlist needs: the turn times and the default meal duration. */
export interface SeatingConfig {
  defaultMealMinutes: number;
  turnTimes: readonly TurnTime[];
}

/**
 * What the waitlist reads from, and writes to, the other subgraphs, with the caller's token. This is the one
 * seam to the seating work of other subgraphs: `combinations` and `seatingConfig` read what exists today
 * (no combinations; capacity's defaultMealMinutes with no turn-time rows) and are switched to tavolo's
 * `combinazioni(attivo: true)` and capacity's full slotConfig (`turnTimes`) where those exist.
 */
export interface SeatingInputs {
  /** The tenant's active tables with their statuses. */
  tables(): Promise<QuoteTable[]>;
  /** The tenant's active combinations of tables. */
  combinations(): Promise<QuoteCombination[]>;
  seatingConfig(): Promise<SeatingConfig>;
  /** Sets each table's status to occupied with the party's covers (idempotent: occupied again stays so). */
  setOccupied(tableIds: readonly string[], covers: number): Promise<void>;
}

const ACTIVE_TABLES = /* GraphQL */ `
  query WaitlistTables {
    tavoli(filter: { attivo: true }) {
      id
      seats
      status
      attivo
      pax
      updatedAt
    }
  }
`;

const SET_OCCUPIED = /* GraphQL */ `
  mutation WaitlistSeatTable($id: ID!, $pax: Int!) {
    setTavoloStatus(id: $id, input: { status: occupied, pax: $pax }) {
      id
    }
  }
`;

interface TableRow {
  id: string;
  seats: number;
  status: QuoteTableStatus;
  attivo: boolean;
  pax: number | null;
  updatedAt: string;
}

/** The seating inputs from tavolo and capacity through their GraphQL APIs (the subgraph client). */
export function subgraphSeatingInputs(deps: {
  subgraphs: SubgraphClient;
  viewer: Viewer;
  /** capacity's defaultMealMinutes (cached per tenant: meal-minutes.ts). */
  defaultMealMinutes: () => Promise<number>;
}): SeatingInputs {
  const authorization = `Bearer ${deps.viewer.token}`;
  return {
    async tables() {
      const { tavoli } = await deps.subgraphs.request<{ tavoli: TableRow[] }>(
        'tavolo',
        ACTIVE_TABLES,
        {},
        authorization,
      );
      return tavoli.map((t) => ({
        id: t.id,
        seats: t.seats,
        active: t.attivo,
        status: t.status,
        statusSince: t.updatedAt,
        pax: t.pax,
      }));
    },
    // Combinations arrive with tavolo's `combinazioni(attivo: true)`; until then there are none.
    combinations: async () => [],
    // Turn-time rows arrive with capacity's slotConfig.turnTimes; until then everyone gets the default meal.
    seatingConfig: async () => ({ defaultMealMinutes: await deps.defaultMealMinutes(), turnTimes: [] }),
    async setOccupied(tableIds, covers) {
      for (const id of tableIds) {
        await deps.subgraphs.request('tavolo', SET_OCCUPIED, { id, pax: covers }, authorization);
      }
    },
  };
}
