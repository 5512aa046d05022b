import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

const ALLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const ALLOW_HEADERS = ['authorization', 'content-type', 'x-request-id', 'apollo-require-preflight'];
const EXPOSE_HEADERS = ['x-request-id', 'retry-after', 'x-cache', 'www-authenticate'];

/** The paths a browser page of another origin may call. */
export function corsApplies(path: string): boolean {
  return path === '/graphql' || path === '/openapi.json' || path.startsWith('/api/');
}

/**
 * CORS from `CORS_ORIGINS` (exact origins, or `*`) with @fastify/cors on the covered paths: the allowed origin is
 * echoed with the exposed headers; a preflight is answered with 204 (allow headers only for an allowed origin).
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  // Built once: the delegator runs on every request.
  const covered: FastifyCorsOptions = {
    origin: (origin, done) => done(null, origin !== undefined && (any || allowed.has(origin))),
    methods: ALLOW_METHODS,
    allowedHeaders: ALLOW_HEADERS,
    exposedHeaders: EXPOSE_HEADERS,
    maxAge: 600,
    strictPreflight: false,
  };
  const uncovered: FastifyCorsOptions = { origin: false };
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request, callback) => {
      const path = (request.url ?? '/').split('?', 1)[0]!;
      callback(null, corsApplies(path) ? covered : uncovered);
    },
  });
}
