import type { FastifyInstance } from 'fastify';
import { restErrorBody } from '@coperto/errors';
import { withRequestId } from './request-id.js';

/**
 * Every other method on a documented path (HEAD, TRACE, QUERY… but OPTIONS, which CORS preflights use) is a 405
 * with `Allow`, answered before the body is read: a QUERY without a Content-Type is a 405 too, not a body error.
 */
export function answerOtherMethods(app: FastifyInstance, path: string, methods: ReadonlySet<string>): void {
  const allow = [...methods].join(', ');
  app.route({
    method: app.supportedMethods.filter((m) => m !== 'OPTIONS' && !methods.has(m)),
    url: path,
    exposeHeadRoute: false,
    onRequest: async (request, reply) =>
      reply
        .code(405)
        .header('allow', allow)
        .send(withRequestId(restErrorBody('METHOD_NOT_ALLOWED', `Use ${allow}`), request.raw)),
    handler: () => {
      throw new Error('unreachable: onRequest answers every request of this route');
    },
  });
}
