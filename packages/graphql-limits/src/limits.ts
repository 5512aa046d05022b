/**
 * The ceilings every GraphQL entry point applies to a document (gateway `/graphql`, its graphql-ws socket,
 * every subgraph port). Each is set by an environment variable in the process's config.ts.
 */
export interface OperationLimits {
  /** GRAPHQL_MAX_TOKENS: lexical tokens in the document; counted while parsing, which stops past the limit. */
  maxTokens: number;
  /** GRAPHQL_MAX_DEPTH: nesting of fields (fragments flattened, so `... on X` adds no level). */
  maxDepth: number;
  /** GRAPHQL_MAX_ALIASES: aliased fields in an operation, fragments included. */
  maxAliases: number;
  /** GRAPHQL_MAX_DIRECTIVES: directives in an operation. */
  maxDirectives: number;
  /** GRAPHQL_MAX_COST: estimated work (see operation-cost.ts: each list field multiplies what it selects). */
  maxCost: number;
}

/**
 * Defaults: several times what the largest REST operation and documented back-office query need (the margins
 * are asserted by test/operation-limits.test.ts), far below what costs the gateway measurable time.
 */
export const DEFAULT_OPERATION_LIMITS: Readonly<OperationLimits> = Object.freeze({
  maxTokens: 2000,
  maxDepth: 10,
  maxAliases: 30,
  maxDirectives: 20,
  maxCost: 20_000,
});
