import type { FastifyInstance } from 'fastify';
import { restErrorBody } from '@coperto/errors';
import type { HealthAnswer } from './bodies.js';
import { sendJson } from './respond.js';

/** Answers of the health paths; each builds its answer from the node's current state. */
export interface HealthRoutes {
  live(): HealthAnswer<unknown>;
  ready(): Promise<HealthAnswer<unknown>>;
  overview(): Promise<HealthAnswer<unknown>>;
  detailed(): Promise<HealthAnswer<unknown>>;
  familyB(): HealthAnswer<unknown>;
  /** May the peer at this address read `/detailed`? */
  allowDetailed(address: string | undefined): boolean;
}

/**
 * The thin HTTP layer on a fastify instance: GET/HEAD on the five paths, 405 for other methods (with `Allow`,
 * before any body is read), 404 elsewhere, 403 on `/detailed` for a peer outside the allowed networks (the
 * socket's peer, never a forwarded header). Errors are JSON in the REST error shape.
 */
export function registerHealthRoutes(app: FastifyInstance, routes: HealthRoutes): void {
  const answers: Record<string, () => HealthAnswer<unknown> | Promise<HealthAnswer<unknown>>> = {
    '/public/health/live': routes.live,
    '/public/health/ready': routes.ready,
    '/public/health/overview': routes.overview,
    '/public/health/detailed': routes.detailed,
    '/health': routes.familyB,
  };
  const otherMethods = app.supportedMethods.filter((method) => method !== 'GET' && method !== 'HEAD');
  for (const [url, answer] of Object.entries(answers)) {
    app.get(url, async (request, reply) => {
      if (url === '/public/health/detailed' && !routes.allowDetailed(request.socket.remoteAddress)) {
        return sendJson(
          reply,
          403,
          restErrorBody('FORBIDDEN', 'Detailed health is for internal networks only'),
        );
      }
      const { status, body } = await answer();
      return sendJson(reply, status, body);
    });
    app.route({
      method: otherMethods,
      url,
      onRequest: async (_request, reply) =>
        sendJson(reply, 405, restErrorBody('METHOD_NOT_ALLOWED', 'Only GET and HEAD are supported'), {
          allow: 'GET, HEAD',
        }),
      handler: async () => undefined,
    });
  }
  app.setNotFoundHandler((_request, reply) =>
    sendJson(reply, 404, restErrorBody('NOT_FOUND', 'No health endpoint at this path')),
  );
  app.setErrorHandler((_error, _request, reply) =>
    sendJson(reply, 500, restErrorBody('INTERNAL', 'Internal server error')),
  );
}
