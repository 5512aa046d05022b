import type { FastifyInstance } from 'fastify';

/** `GET /asyncapi.json` (no auth): the AsyncAPI document, built once on first request. */
export function registerAsyncApiRoute(app: FastifyInstance, document: () => Record<string, unknown>): void {
  let json: string | undefined;
  app.get('/asyncapi.json', (_request, reply) => {
    json ??= JSON.stringify(document());
    return reply.type('application/json; charset=utf-8').send(json);
  });
}
