import { readFileSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { withDateScalars } from '@coperto/domain';
import { createSubscriptionResolvers, type SubscriptionResolverDeps } from './resolvers.js';

/** The SDL of the subscription schema (schema.graphql next to this file). */
export const SUBSCRIPTION_SCHEMA_FILE = new URL('./schema.graphql', import.meta.url);

/** Builds the gateway's executable subscription schema over the event bus. */
export function createSubscriptionSchema(deps: SubscriptionResolverDeps): GraphQLSchema {
  return withDateScalars(
    makeExecutableSchema({
      typeDefs: readFileSync(SUBSCRIPTION_SCHEMA_FILE, 'utf8'),
      resolvers: createSubscriptionResolvers(deps),
    }),
  );
}
