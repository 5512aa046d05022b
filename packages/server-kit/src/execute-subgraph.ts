import {
  execute,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
} from 'graphql';
import { formatGraphQLError } from '@coperto/errors';
import type { Logger } from './logger.js';
import type { Subgraph, SubgraphRequest } from './subgraph.js';

export interface GraphQLRequestBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface SubgraphResult {
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
}

/**
 * Executes a GraphQL request against a subgraph: builds the subgraph's own context from the forwarded token
 * (a bad token fails the whole request with UNAUTHENTICATED), parses and validates each distinct query once
 * (the gateway sends the same few fetch queries over and over), and formats errors with stable codes.
 */
export function createSubgraphExecutor(
  subgraph: Subgraph,
  options: {
    onInternalError?: (e: unknown) => void;
    /** One access line per request (subgraph, request id, operation, duration, error count). */
    logger?: Logger;
  } = {},
) {
  const documents = new Map<string, DocumentNode | readonly GraphQLFormattedError[]>();
  const maxDocuments = 1000;
  const format = (error: unknown) =>
    formatGraphQLError(
      error as { message: string; extensions?: Record<string, unknown> },
      error,
      options.onInternalError,
    ) as GraphQLFormattedError;

  /** A query the subgraph cannot parse or validate is the caller's mistake, not an internal error. */
  const withCode = (error: unknown, code: string) => {
    const { message } = error as { message: string };
    return format(new GraphQLError(message, { extensions: { code } }));
  };

  const prepare = (query: string): DocumentNode | readonly GraphQLFormattedError[] => {
    const cached = documents.get(query);
    if (cached) return cached;
    let prepared: DocumentNode | readonly GraphQLFormattedError[];
    try {
      const document = parse(query);
      const errors = validate(subgraph.schema, document);
      prepared = errors.length > 0 ? errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED')) : document;
    } catch (error) {
      prepared = [withCode(error, 'GRAPHQL_PARSE_FAILED')];
    }
    if (documents.size >= maxDocuments) documents.clear();
    documents.set(query, prepared);
    return prepared;
  };

  const run = async (body: GraphQLRequestBody, request: SubgraphRequest): Promise<SubgraphResult> => {
    if (typeof body.query !== 'string') {
      return { errors: [{ message: 'Missing query', extensions: { code: 'VALIDATION_FAILED' } }] };
    }
    const prepared = prepare(body.query);
    if (Array.isArray(prepared)) return { errors: [...prepared] };
    let contextValue: unknown;
    try {
      contextValue = await subgraph.createContext(request);
    } catch (error) {
      return { errors: [format(error)] };
    }
    const result = await execute({
      schema: subgraph.schema,
      document: prepared as DocumentNode,
      variableValues: isRecord(body.variables) ? body.variables : undefined,
      operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
      contextValue,
    });
    return {
      ...(result.data === undefined ? {} : { data: result.data as Record<string, unknown> | null }),
      ...(result.errors ? { errors: result.errors.map(format) } : {}),
    };
  };
  const logger = options.logger;
  if (!logger) return run;
  return async function executeSubgraph(body: GraphQLRequestBody, request: SubgraphRequest) {
    const started = performance.now();
    const result = await run(body, request);
    logger.info('subgraph request', {
      subgraph: subgraph.name,
      requestId: request.requestId,
      operation: typeof body.operationName === 'string' ? body.operationName : undefined,
      errors: result.errors?.length ?? 0,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
    return result;
  };
}

export type SubgraphExecutor = ReturnType<typeof createSubgraphExecutor>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
