import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';

/**
 * A document without the operation the request names (or with several operations and no name) is the
 * caller's mistake, and so is a subscription over HTTP (the HTTP schema has no subscription root): 400
 * VALIDATION_FAILED here, before the gateway's planner throws it as a 500.
 */
export function operationResolutionPlugin<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, request, schema }) {
          if (operation?.operation === 'subscription' && !schema.getSubscriptionType()) {
            throw new GraphQLError('Subscriptions are served over graphql-ws, not HTTP POST', {
              extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } },
            });
          }
          if (operation) return;
          const name = typeof request.operationName === 'string' ? request.operationName : undefined;
          throw new GraphQLError(
            name === undefined
              ? 'Name the operation to run: the document has several'
              : `Unknown operation named "${name}"`,
            { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } } },
          );
        },
      };
    },
  };
}
