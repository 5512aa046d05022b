import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { OperationLimits } from './limits.js';
import { operationShapeRules } from './shape-rules.js';
import { assertTokenLimit } from './token-limit.js';

export interface OperationRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/**
 * Every limit at once, for entry points without Apollo Server's pipeline (the graphql-ws socket): the
 * QUERY_TOO_COMPLEX errors of `request`, or `undefined` when it is within the limits. A document that does not
 * parse is left to the caller's own parse and validation, which report it.
 */
export function operationLimitErrors(
  schema: GraphQLSchema,
  request: OperationRequest,
  limits: OperationLimits,
): GraphQLError[] | undefined {
  if (typeof request.query !== 'string') return undefined;
  let document: DocumentNode;
  try {
    assertTokenLimit(request.query, limits.maxTokens);
    document = parse(request.query, { maxTokens: limits.maxTokens });
  } catch (error) {
    return isLimitError(error) ? [error] : undefined;
  }
  const refused = validate(schema, document, operationShapeRules(limits));
  return refused.length > 0 ? [...refused] : undefined;
}

function isLimitError(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && error.extensions.code === 'QUERY_TOO_COMPLEX';
}
