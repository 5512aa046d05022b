import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from '../graphql/context.js';

const SANE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's `x-request-id` when it is sane (≤ 128 of `[A-Za-z0-9._-]`), else a new UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && SANE_ID.test(value) ? value : randomUUID();
}

/** What the access line says about one request; filled in as the request goes. */
export interface RequestTrace {
  id: string;
  /** Route template (`/api/tavoli/:id`), `/graphql`, or the fixed path of another page. */
  route: string;
  tenant?: string;
  operation?: string;
}

/** Where a request's trace is kept: a property of the request itself (a WeakMap entry cost more per request). */
const TRACE = Symbol('coperto.trace');
type TracedRequest = IncomingMessage & { [TRACE]?: RequestTrace };

/** Gives the request its id, returned at once as the `x-request-id` response header. */
export function startTrace(req: IncomingMessage, res: ServerResponse, route: string): RequestTrace {
  const trace: RequestTrace = { id: requestIdFrom(req.headers['x-request-id']), route };
  (req as TracedRequest)[TRACE] = trace;
  res.setHeader('x-request-id', trace.id);
  return trace;
}

export function traceOf(req: IncomingMessage): RequestTrace | undefined {
  return (req as TracedRequest)[TRACE];
}

/** A REST error body (`{error: {...}}`) with `error.requestId`; other bodies unchanged. */
export function withRequestId<T>(body: T, req: IncomingMessage): T {
  const id = traceOf(req)?.id;
  const error = (body as { error?: unknown } | null)?.error;
  if (!id || typeof error !== 'object' || error === null) return body;
  return { ...body, error: { ...error, requestId: id } };
}

/**
 * Puts the request id into every GraphQL error (`extensions.requestId`) and notes the operation name and
 * tenant for the access line.
 */
export function requestIdPlugin(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart({ contextValue }) {
      return {
        async willSendResponse({ response, operationName }) {
          const trace = contextValue.trace;
          if (trace) {
            trace.tenant = contextValue.viewer.tenantId;
            trace.operation ??= operationName ?? undefined;
          }
          if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
          const requestId = contextValue.requestId;
          response.body.singleResult.errors = response.body.singleResult.errors.map((error) => ({
            ...error,
            extensions: { ...error.extensions, requestId },
          }));
        },
      };
    },
  };
}
