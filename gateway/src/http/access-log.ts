import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@coperto/server-kit';
import type { RequestTrace } from './request-id.js';

/**
 * Route label of a request no REST route took (a REST route's label is its template): `/graphql` or a fixed
 * label, never the raw path.
 */
export function routeLabel(path: string): string {
  if (path === '/graphql') return '/graphql';
  if (path.startsWith('/api/')) return '/api/*';
  if (path === '/openapi.json' || path === '/docs') return path;
  if (path.startsWith('/docs/')) return '/docs/*';
  if (path.startsWith('/explorer/')) return '/explorer/*';
  return 'other';
}

// A type, not an interface: it is passed as the logger's fields record as it is.
export type AccessEntry = {
  requestId: string;
  method: string;
  route: string;
  operation?: string;
  tenant?: string;
  status: number;
  durationMs: number;
};

/**
 * One access line per request when the response is done: its `close` event, which follows `finish` when the
 * response was sent, and comes alone when the connection closed first (then the status is 499). One listener
 * and one entry object per request: this runs on every request of every port.
 */
export function logAccess(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  trace: RequestTrace,
  onEntry?: (entry: AccessEntry) => void,
): void {
  const started = performance.now();
  res.once('close', () => {
    const entry: AccessEntry = {
      requestId: trace.id,
      method: req.method ?? 'GET',
      route: trace.route,
      status: res.writableFinished ? res.statusCode : 499,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    };
    if (trace.operation) entry.operation = trace.operation;
    if (trace.tenant) entry.tenant = trace.tenant;
    logger.info('request', entry);
    onEntry?.(entry);
  });
}
