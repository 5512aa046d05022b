import { listen } from '@coperto/async';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  /** The fastify instance answering the scrapes (tests call its `inject`). */
  readonly http: FastifyInstance;
  /** Starts listening (port 0 picks a free port; the service default is 3030, chosen by the caller). */
  listen(port: number, host?: string): Promise<{ port: number }>;
  /** Stops listening and closes open connections. Idempotent. */
  close(): Promise<void>;
}

const TEXT = 'text/plain; charset=utf-8';

/** An answer no cache keeps; fastify leaves the body out for HEAD. */
function send(reply: FastifyReply, status: number, contentType: string, body: string): FastifyReply {
  return reply.code(status).headers({ 'content-type': contentType, 'cache-control': 'no-store' }).send(body);
}

/**
 * A fastify instance of its own exposing `GET /metrics` (Prometheus text format) for one `Metrics`: HEAD too,
 * 405 with `Allow` for other methods (before any body is read), 404 in plain text elsewhere.
 */
export function createMetricsServer(metrics: Metrics): MetricsServer {
  const app = Fastify({ logger: false });
  app.get('/metrics', async (_request, reply) => {
    try {
      const { contentType, body } = await metrics.scrape();
      return send(reply, 200, contentType, body);
    } catch {
      return send(reply, 500, TEXT, 'Metrics collection failed\n');
    }
  });
  app.route({
    method: app.supportedMethods.filter((method) => method !== 'GET' && method !== 'HEAD'),
    url: '/metrics',
    onRequest: async (_request, reply) =>
      send(reply.header('allow', 'GET, HEAD'), 405, TEXT, 'Method not allowed\n'),
    handler: async () => undefined,
  });
  app.setNotFoundHandler((_request, reply) =>
    send(reply, 404, TEXT, 'Not found: the metrics are at /metrics\n'),
  );

  const server = app.server;
  let closing: Promise<void> | undefined;
  return {
    http: app,
    async listen(port, host) {
      await app.ready();
      return { port: await listen(server, port, host) };
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
