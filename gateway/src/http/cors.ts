import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'authorization, content-type, x-request-id, apollo-require-preflight';
const EXPOSE_HEADERS = 'x-request-id, retry-after, x-cache, www-authenticate';
const MAX_AGE_SECONDS = '600';

/** The paths a browser page of another origin may call. */
export function corsApplies(path: string): boolean {
  return path === '/graphql' || path === '/openapi.json' || path.startsWith('/api/');
}

/** The request's path (the URL without its query). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * CORS from `CORS_ORIGINS` (exact origins, or `*`) on the covered paths: an allowed origin is echoed with the
 * exposed headers, and its preflight is answered with 204 and what may be sent; any other origin, a request
 * without one, and the paths not covered get no CORS header. Every answer says `Vary: Origin`.
 *
 * Our own hook rather than @fastify/cors, for a measured reason: that plugin, in the per-path (delegator) form these
 * rules need, normalised its options and built fastify's route options twice on every request, ≈ 5 µs of the
 * 40 µs a cached `GET /api/tavoli` costs (bench/RESULTS.md, scenario 1). Here a request without an Origin header
 * (every non-browser client) costs one header; the rules are the same (gateway/test/cors.test.ts).
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  /** Whether the request comes from an allowed origin on a covered path; sets the headers it then gets. */
  const corsRequest = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const origin = request.headers.origin;
    if (!origin || !(any || allowed.has(origin)) || !corsApplies(pathOf(request.url))) return false;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    return true;
  };
  app.decorateRequest('corsAllowed', false);
  // First of the CORS work, before authentication: a refused or failed request still tells the page why.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('vary', 'Origin');
    request.corsAllowed = corsRequest(request, reply);
    done();
  });
  // Preflights: answered for an allowed origin on a covered path, a 404 otherwise (as for any unknown route).
  app.options('*', (request, reply) => {
    if (!request.corsAllowed) return reply.callNotFound();
    return reply
      .code(204)
      .header('access-control-allow-methods', ALLOW_METHODS)
      .header('access-control-allow-headers', ALLOW_HEADERS)
      .header('access-control-max-age', MAX_AGE_SECONDS)
      .header('content-length', '0')
      .send();
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the CORS hook: the request comes from an allowed origin on a covered path. */
    corsAllowed: boolean;
  }
}
