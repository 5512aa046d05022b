import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AppError, formatGraphQLError, restErrorFromAppError } from '@coperto/errors';
import { DEFAULT_BODY_LIMIT_BYTES, INTERNAL_MAX_JSON_DEPTH, readJsonBody } from './json-body.js';
import { requestTarget } from './request-target.js';
import { sendJson } from './send-json.js';
import type { GraphQLRequestBody, SubgraphExecutor } from './execute-subgraph.js';
import type { Logger } from './logger.js';

export interface SubgraphHttpOptions {
  executor: SubgraphExecutor;
  logger: Logger;
  /** Body limit for subgraph requests: the gateway's (BODY_LIMIT_BYTES). Default 1 MiB. */
  bodyLimitBytes?: number;
  onRequest?: (info: { status: number; durationMs: number }) => void;
}

/**
 * The subgraph's own HTTP endpoint in distributed mode: `POST /graphql` with a JSON body, the caller's
 * Authorization header forwarded by the gateway (verified again by the subgraph). Only the gateway and sibling
 * subgraphs call it; it is never published outside the private network.
 */
export function createSubgraphHttpServer(options: SubgraphHttpOptions): Server {
  const limit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (requestTarget(req.url)?.pathname !== '/graphql')
      return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
    if (req.method !== 'POST') {
      return sendJson(
        res,
        405,
        { error: { code: 'VALIDATION_FAILED', message: 'Use POST' } },
        { allow: 'POST' },
      );
    }
    // The token first: a caller without a valid one gets nothing read, parsed or cached.
    const request = {
      authorization: req.headers.authorization,
      requestId: headerValue(req.headers['x-request-id']),
    };
    const auth = await options.executor.authenticate(request);
    if (!auth.ok) {
      req.resume();
      return sendJson(res, 200, { errors: auth.errors });
    }
    const body = (await readJsonBody(req, limit, INTERNAL_MAX_JSON_DEPTH)) as GraphQLRequestBody | undefined;
    const result = await options.executor.executeAuthenticated(body ?? {}, auth.contextValue, request);
    sendJson(res, refusedForLimits(result) ? 400 : 200, result);
  };
  return createServer((req, res) => {
    const started = performance.now();
    res.once('finish', () =>
      options.onRequest?.({ status: res.statusCode, durationMs: performance.now() - started }),
    );
    handle(req, res).catch((error: unknown) => {
      if (error instanceof AppError) {
        const { status, body } = restErrorFromAppError(error);
        return sendJson(res, status, body);
      }
      options.logger.error('subgraph request failed', { error });
      if (!res.headersSent) sendJson(res, 500, { errors: [formatGraphQLError({ message: 'x' }, error)] });
    });
  });
}

/** A document over the operation limits is refused as a whole: 400, as on the gateway. */
function refusedForLimits(result: { data?: unknown; errors?: readonly { extensions?: unknown }[] }) {
  return (
    result.data === undefined &&
    (result.errors?.length ?? 0) > 0 &&
    result.errors!.every(
      (e) => (e.extensions as { code?: unknown } | undefined)?.code === 'QUERY_TOO_COMPLEX',
    )
  );
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
