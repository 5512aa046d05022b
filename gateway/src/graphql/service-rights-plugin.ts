import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { forbiddenRootFields } from '@coperto/auth';
import type { GatewayContext } from './context.js';
import { rootFieldsOf } from './root-fields.js';

/**
 * A channel key or a guest token may select only the root fields its role allows (@coperto/auth
 * SERVICE_ROLE_FIELDS): anything else is 403 FORBIDDEN before the operation is planned, on /graphql and on every
 * REST route (which run through this same server).
 */
export function serviceRightsPlugin(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, contextValue }) {
          if (!operation || contextValue.viewer.grant === undefined) return;
          const forbidden = forbiddenRootFields(contextValue.viewer, rootFieldsOf(operation, document));
          if (forbidden.length === 0) return;
          throw new GraphQLError(
            `Not allowed with a ${contextValue.viewer.grant.role} token: ${forbidden.join(', ')}`,
            {
              extensions: { code: 'FORBIDDEN', http: { status: 403 } },
            },
          );
        },
      };
    },
  };
}
