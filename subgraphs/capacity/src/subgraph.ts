import { buildSubgraphSchema } from '@apollo/subgraph';
import { loadSchemaFile, type Subgraph } from '@coperto/server-kit';
import { ensureCategoriesIndexes } from './category-store.js';
import { createCapacityContext, type CapacityContext, type CapacityDeps } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { CapacitySlot } from './resolvers/CapacitySlot.js';
import { Mutation } from './resolvers/Mutation.js';
import { ProductionCategory } from './resolvers/ProductionCategory.js';
import { Query } from './resolvers/Query.js';
import { ReminderRule, SlotConfig } from './resolvers/SlotConfig.js';
import { SLOT_CONFIG_COLLECTION } from './slot-config-store.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = { Query, Mutation, SlotConfig, ReminderRule, CapacitySlot, ProductionCategory };

/** The capacity subgraph (slot settings, production categories, slots), ready to be served in-process or over HTTP. */
export function createCapacitySubgraph(deps: CapacityDeps): Subgraph<CapacityContext> {
  const schema = buildSubgraphSchema([{ typeDefs, resolvers }]);
  return {
    name: 'capacity',
    typeDefs,
    schema,
    // The settings' record carries the capacity.config.updated events.
    outboxCollections: [SLOT_CONFIG_COLLECTION],
    createContext: (request) => createCapacityContext(deps, request),
    init: () => ensureCategoriesIndexes(deps.store),
  };
}

export type { CapacityDeps } from './context.js';
export { MAX_CAPACITY_PER_SLOT, NAME_MAX_LENGTH } from './category-record.js';
export { MAX_INTERVALS_PER_DAY } from './opening-hours.js';
export { REMINDER_LIMITS } from './reminder-rules.js';
export {
  MAX_COVERS_RANGE,
  MAX_TURN_TIMES,
  MEAL_MINUTES_RANGE,
  RESEAT_FREEZE_MINUTES_RANGE,
  SHORTENED_MIN_MINUTES_RANGE,
  SLOT_MINUTES_RANGE,
  TURN_TIME_MAX_COVERS_RANGE,
} from './slot-config-record.js';
