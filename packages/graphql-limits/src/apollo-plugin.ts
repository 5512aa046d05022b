import type { ApolloServerOptions, BaseContext } from '@apollo/server';
import type { OperationLimits } from './limits.js';
import { operationShapeRules } from './shape-rules.js';

/**
 * Apollo Server options for the limits: depth, aliases, directives and cost with the validation (before the
 * gateway plans anything), and graphql-js's own token limit in the parser as a backstop. Apollo Server maps
 * errors thrown by plugin hooks to a 500, so the token count that answers QUERY_TOO_COMPLEX runs before
 * Apollo Server is called (`assertTokenLimit` on the request's `query`).
 */
export function apolloOperationLimits<Context extends BaseContext>(
  limits: OperationLimits,
): Pick<ApolloServerOptions<Context>, 'parseOptions' | 'validationRules'> {
  return {
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: operationShapeRules(limits),
  };
}
