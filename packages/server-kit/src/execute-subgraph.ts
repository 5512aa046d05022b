import {
  execute,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { findAppError, formatGraphQLError } from '@coperto/errors';
import { operationShapeRules, parseWithTokenLimit, type OperationLimits } from '@coperto/graphql-limits';
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

/** The caller's verified context, or the errors that refused the token. */
export type SubgraphAuthentication =
  { ok: true; contextValue: unknown } | { ok: false; errors: GraphQLFormattedError[] };

export interface SubgraphExecutorOptions {
  onInternalError?: (e: unknown) => void;
  /** Operation limits (packages/graphql-limits) checked before execution; none when absent. */
  limits?: OperationLimits;
  /** Bytes of parsed documents kept (key + AST as JSON), least recently used dropped first. @default 4 MiB */
  documentCacheBytes?: number;
  /** One access line per request (subgraph, request id, operation, duration, error count). */
  logger?: Logger;
}

/**
 * Executes a request; `authenticate` lets an HTTP port check the token first, `prepare`, `format` and
 * `logRequest` let it hand the rest to a GraphQL-over-HTTP handler (serve-subgraph.ts).
 */
export interface SubgraphExecutor {
  (body: GraphQLRequestBody, request: SubgraphRequest): Promise<SubgraphResult>;
  readonly schema: GraphQLSchema;
  authenticate(request: SubgraphRequest): Promise<SubgraphAuthentication>;
  executeAuthenticated(
    body: GraphQLRequestBody,
    contextValue: unknown,
    request?: SubgraphRequest,
  ): Promise<SubgraphResult>;
  /** The parsed and validated document of a query (cached), or the errors that refuse it. */
  prepare(query: string): Prepared;
  /** An error as the caller sees it: stable code, no internal text. */
  format(error: unknown): GraphQLFormattedError;
  /** The access line of one request. */
  logRequest(
    body: GraphQLRequestBody,
    request: SubgraphRequest | undefined,
    result: SubgraphResult,
    started: number,
  ): void;
}

/** A parsed and validated document, or the errors (with their codes) that refuse the query. */
export type Prepared = DocumentNode | readonly GraphQLError[];

export const DEFAULT_DOCUMENT_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * Executes a GraphQL request against a subgraph: builds the subgraph's own context from the forwarded token
 * first (a bad token fails the whole request with UNAUTHENTICATED before the query is looked at), parses and
 * validates each distinct query once (the gateway sends the same few fetch queries over and over; the cache is
 * bounded by bytes), applies the operation limits, and formats errors with stable codes.
 */
export function createSubgraphExecutor(
  subgraph: Subgraph,
  options: SubgraphExecutorOptions = {},
): SubgraphExecutor {
  const { limits } = options;
  const documents = new LRUCache<string, Prepared>({
    maxSize: options.documentCacheBytes ?? DEFAULT_DOCUMENT_CACHE_BYTES,
    sizeCalculation: (value, key) => Math.max(1, key.length + Buffer.byteLength(JSON.stringify(value))),
  });
  const rules = limits ? [...specifiedRules, ...operationShapeRules(limits)] : specifiedRules;
  const format = (error: unknown) =>
    formatGraphQLError(
      error as { message: string; extensions?: Record<string, unknown> },
      error,
      options.onInternalError,
    ) as GraphQLFormattedError;

  /** A query the subgraph cannot parse or validate is the caller's mistake, not an internal error. */
  const withCode = (error: unknown, code: string): GraphQLError => {
    const original = findAppError(error);
    if (original)
      return error instanceof GraphQLError
        ? error
        : new GraphQLError(original.message, { originalError: original });
    const { message } = error as { message: string };
    return new GraphQLError(message, { extensions: { code } });
  };

  const prepare = (query: string): Prepared => {
    const cached = documents.get(query);
    if (cached) return cached;
    let prepared: Prepared;
    try {
      const document = limits ? parseWithTokenLimit(query, limits.maxTokens) : parse(query);
      const errors = validate(subgraph.schema, document, rules);
      prepared = errors.length > 0 ? errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED')) : document;
    } catch (error) {
      prepared = [withCode(error, 'GRAPHQL_PARSE_FAILED')];
    }
    documents.set(query, prepared);
    return prepared;
  };

  const authenticate = async (request: SubgraphRequest): Promise<SubgraphAuthentication> => {
    try {
      return { ok: true, contextValue: await subgraph.createContext(request) };
    } catch (error) {
      return { ok: false, errors: [format(error)] };
    }
  };

  const run = async (body: GraphQLRequestBody, contextValue: unknown): Promise<SubgraphResult> => {
    if (typeof body.query !== 'string') {
      return { errors: [{ message: 'Missing query', extensions: { code: 'VALIDATION_FAILED' } }] };
    }
    const prepared = prepare(body.query);
    if (Array.isArray(prepared)) return { errors: prepared.map(format) };
    const document = prepared as DocumentNode;
    const variableValues = isRecord(body.variables) ? body.variables : undefined;
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
    const result = await execute({
      schema: subgraph.schema,
      document,
      variableValues,
      operationName,
      contextValue,
    });
    return {
      ...(result.data === undefined ? {} : { data: result.data as Record<string, unknown> | null }),
      ...(result.errors ? { errors: result.errors.map(format) } : {}),
    };
  };

  const logger = options.logger;
  const logRequest = (
    body: GraphQLRequestBody,
    request: SubgraphRequest | undefined,
    result: SubgraphResult,
    started: number,
  ) =>
    logger?.info('subgraph request', {
      subgraph: subgraph.name,
      requestId: request?.requestId,
      operation: typeof body.operationName === 'string' ? body.operationName : undefined,
      errors: result.errors?.length ?? 0,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });

  const executeAuthenticated = async (
    body: GraphQLRequestBody,
    contextValue: unknown,
    request?: SubgraphRequest,
  ): Promise<SubgraphResult> => {
    const started = performance.now();
    const result = await run(body, contextValue);
    logRequest(body, request, result, started);
    return result;
  };

  const executeSubgraph = async (
    body: GraphQLRequestBody,
    request: SubgraphRequest,
  ): Promise<SubgraphResult> => {
    const started = performance.now();
    const auth = await authenticate(request);
    if (!auth.ok) {
      const refused = { errors: auth.errors };
      logRequest(body, request, refused, started);
      return refused;
    }
    return executeAuthenticated(body, auth.contextValue, request);
  };
  return Object.assign(executeSubgraph, {
    schema: subgraph.schema,
    authenticate,
    executeAuthenticated,
    prepare,
    format,
    logRequest: (
      body: GraphQLRequestBody,
      request: SubgraphRequest | undefined,
      result: SubgraphResult,
      started: number,
    ) => logRequest(body, request, result, started),
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
