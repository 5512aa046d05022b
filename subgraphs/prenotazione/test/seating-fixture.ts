import type { SubgraphClient } from '@coperto/server-kit';
import type {
  SeatingCombination,
  SeatingConfig,
  SeatingSources,
  SeatingTable,
} from '../src/seating/seating-sources.js';

/** tavolo's answer to "do these tables exist": all of them do (the table subgraph is not under test here). */
export const tablesExist: SubgraphClient = {
  request: async <TResult, TVariables>(_: string, __: unknown, variables: TVariables) =>
    ({
      _entities: (variables as { representations: Array<{ id: string }> }).representations.map(({ id }) => ({
        id,
      })),
    }) as TResult,
};

/** What tavolo and capacity would answer, held in memory and changeable by the test (the real reads are e2e). */
export interface SeatingWorld {
  config: SeatingConfig;
  tables: SeatingTable[];
  combinations: SeatingCombination[];
}

export function seatingWorld(overrides: Partial<SeatingWorld> = {}): SeatingWorld {
  return {
    config: { turnTimes: [], defaultMealMinutes: 120, reseat: true, reseatFreezeMinutes: 60 },
    tables: [],
    combinations: [],
    ...overrides,
  };
}

/** Sources reading `world` at every call (so a test may change it between calls). */
export function worldSources(world: SeatingWorld): SeatingSources {
  return {
    config: async () => world.config,
    activeTables: async () => world.tables,
    activeCombinations: async () => world.combinations.filter((c) => c.attivo),
    combination: async (id) => world.combinations.find((c) => c.id === id) ?? null,
  };
}
