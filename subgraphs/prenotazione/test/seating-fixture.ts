import type { SubgraphClient } from '@coperto/server-kit';
import type {
  SeatingCombination,
  SeatingConfig,
  SeatingSources,
  SeatingTable,
} from '../src/seating/seating-sources.js';

/** The subgraph client where nothing may call another subgraph: the sources below stand in for them. */
export const noSubgraphCalls: SubgraphClient = {
  request: async (subgraph: string) => {
    throw new Error(`unexpected call to ${subgraph}: the test's seating sources stand in for it`);
  },
};

/** What tavolo and capacity would answer, held in memory and changeable by the test (the real reads are e2e). */
export interface SeatingWorld {
  config: SeatingConfig;
  tables: SeatingTable[];
  combinations: SeatingCombination[];
}

export function seatingWorld(overrides: Partial<SeatingWorld> = {}): SeatingWorld {
  return {
    config: {
      turnTimes: [],
      defaultMealMinutes: 120,
      reseat: true,
      reseatFreezeMinutes: 60,
      shortenedMinMinutes: null,
    },
    tables: [],
    combinations: [],
    ...overrides,
  };
}

/** Sources reading `world` at every call (so a test may change it between calls); every table exists. */
export function worldSources(world: SeatingWorld): SeatingSources {
  return {
    config: async () => world.config,
    activeTables: async () => world.tables,
    activeCombinations: async () => world.combinations.filter((c) => c.attivo),
    combination: async (id) => world.combinations.find((c) => c.id === id) ?? null,
    unknownTables: async () => [],
  };
}
