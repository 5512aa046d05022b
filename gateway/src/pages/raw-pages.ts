import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** A page written straight to the node response (static assets, HTML pages): `GET` and `HEAD` of `paths`. */
export function registerRawPages(
  app: FastifyInstance,
  paths: Iterable<string>,
  send: (req: IncomingMessage, res: ServerResponse, path: string) => void,
): void {
  for (const path of paths) {
    app.get(path, (request, reply) => {
      reply.hijack();
      send(request.raw, reply.raw, path);
    });
  }
}
