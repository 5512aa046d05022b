import { readFileSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { withDateScalars } from '@coperto/domain';
import { createSubscriptionResolvers, type SubscriptionResolverDeps } from './resolvers.js';

/**
 * The SDL of the subscription schema: events.graphql next to this file and the records the events carry, copied
 * from the subgraphs that own them (`pnpm schema`, scripts/print-subscription-schema.ts).
 */
export const SUBSCRIPTION_SCHEMA_FILE = new URL('./generated/schema.graphql', import.meta.url);

/** Builds the gateway's executable subscription schema over the event bus. */
export function createSubscriptionSchema(deps: SubscriptionResolverDeps): GraphQLSchema {
  return withDateScalars(
    makeExecutableSchema({
      typeDefs: readFileSync(SUBSCRIPTION_SCHEMA_FILE, 'utf8'),
      resolvers: createSubscriptionResolvers(deps),
    }),
  );
}
