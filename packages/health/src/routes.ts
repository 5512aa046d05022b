import type { IncomingMessage, ServerResponse } from 'node:http';
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

export const HEALTH_PATHS = [
  '/public/health/live',
  '/public/health/ready',
  '/public/health/overview',
  '/public/health/detailed',
  '/health',
] as const;

/**
 * The thin HTTP layer: GET/HEAD on the five paths, 405 for other methods (with `Allow`), 404 elsewhere,
 * 403 on `/detailed` for a peer outside the allowed networks. Errors are JSON in the REST error shape.
 */
export function createRequestListener(
  routes: HealthRoutes,
): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const head = req.method === 'HEAD';
    if (!(HEALTH_PATHS as readonly string[]).includes(path)) {
      return sendJson(res, 404, restErrorBody('NOT_FOUND', 'No health endpoint at this path'), { head });
    }
    if (req.method !== 'GET' && !head) {
      return sendJson(res, 405, restErrorBody('METHOD_NOT_ALLOWED', 'Only GET and HEAD are supported'), {
        headers: { Allow: 'GET, HEAD' },
      });
    }
    let answer: HealthAnswer<unknown>;
    switch (path) {
      case '/public/health/live':
        answer = routes.live();
        break;
      case '/public/health/ready':
        answer = await routes.ready();
        break;
      case '/public/health/overview':
        answer = await routes.overview();
        break;
      case '/public/health/detailed':
        if (!routes.allowDetailed(req.socket.remoteAddress)) {
          return sendJson(
            res,
            403,
            restErrorBody('FORBIDDEN', 'Detailed health is for internal networks only'),
            {
              head,
            },
          );
        }
        answer = await routes.detailed();
        break;
      default:
        answer = routes.familyB();
    }
    sendJson(res, answer.status, answer.body, { head });
  };

  return (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, restErrorBody('INTERNAL', 'Internal server error'));
      else res.destroy();
    });
  };
}
