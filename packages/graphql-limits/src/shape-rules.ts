import type { GraphQLError, ValidationContext, ValidationRule } from 'graphql';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import type { OperationLimitName } from '@coperto/errors';
import { queryTooComplex } from './limit-error.js';
import { costLimitRule } from './operation-cost.js';
import type { OperationLimits } from './limits.js';

/**
 * Validation rules for depth, aliases and directives (graphql-armor's visitors) and cost (operation-cost.ts),
 * each reporting QUERY_TOO_COMPLEX with the limit and the count found. Add them to the schema's validation
 * (Apollo Server's `validationRules`, graphql-js `validate`): they need no variables, so a document is checked
 * once, before anything is planned or executed.
 */
export function operationShapeRules(limits: OperationLimits): ValidationRule[] {
  const common = { exposeLimits: true, propagateOnRejection: false } as const;
  return [
    maxDepthRule({
      ...common,
      n: limits.maxDepth,
      flattenFragments: true,
      ignoreIntrospection: true,
      onReject: [reject('depth', limits.maxDepth)],
    }),
    maxAliasesRule({ ...common, n: limits.maxAliases, onReject: [reject('aliases', limits.maxAliases)] }),
    maxDirectivesRule({
      ...common,
      n: limits.maxDirectives,
      onReject: [reject('directives', limits.maxDirectives)],
    }),
    costLimitRule(limits.maxCost),
  ];
}

/** graphql-armor's message is `… limit of <max> exceeded, found <actual>.` (exposeLimits). */
function reject(limit: OperationLimitName, max: number) {
  return (context: ValidationContext | null, error: GraphQLError) => {
    const found = /found (\d+)/.exec(error.message)?.[1];
    context?.reportError(queryTooComplex(limit, max, found === undefined ? undefined : Number(found)));
  };
}
