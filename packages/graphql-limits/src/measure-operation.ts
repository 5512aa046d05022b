import { Lexer, parse, Source, TokenKind, validate, type GraphQLSchema } from 'graphql';
import { tooComplexCause } from './limit-error.js';
import type { OperationLimits } from './limits.js';
import { operationShapeRules } from './shape-rules.js';

export type OperationMeasures = Record<keyof OperationLimits, number>;

/**
 * What a document measures against each limit (with the same counting as the checks), for choosing limits
 * and testing their margins.
 */
export function measureOperation(schema: GraphQLSchema, source: string): OperationMeasures {
  const lexer = new Lexer(new Source(source));
  let maxTokens = 0;
  while (lexer.advance().kind !== TokenKind.EOF) maxTokens++;
  const document = parse(source);
  const zero = { maxTokens: 0, maxDepth: 0, maxAliases: 0, maxDirectives: 0, maxCost: 0 };
  const found: Record<string, number> = { depth: 0, aliases: 0, directives: 0, cost: 0 };
  for (const error of validate(schema, document, operationShapeRules(zero))) {
    const cause = tooComplexCause(error);
    if (cause) {
      const { limit, actual } = cause.details as { limit: string; actual?: number };
      found[limit] = actual ?? 0;
    }
  }
  return {
    maxTokens,
    maxDepth: found.depth ?? 0,
    maxAliases: found.aliases ?? 0,
    maxDirectives: found.directives ?? 0,
    maxCost: found.cost ?? 0,
  };
}
