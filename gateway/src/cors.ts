import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'authorization, content-type, x-request-id, apollo-require-preflight';
const EXPOSE_HEADERS = 'x-request-id, retry-after, x-cache, www-authenticate';

/** The paths a browser page of another origin may call. */
export function corsApplies(path: string): boolean {
  return path === '/graphql' || path === '/openapi.json' || path.startsWith('/api/');
}

/**
 * CORS from `CORS_ORIGINS` (exact origins, or `*`): the allowed origin is echoed with the exposed headers; a
 * preflight (`OPTIONS` with `Access-Control-Request-Method`) on a covered path is answered here with 204 (with
 * the allow headers only for an allowed origin). Returns true when the request was answered.
 */
export function createCors(origins: readonly string[]) {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return function applyCors(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (!corsApplies(path)) return false;
    const origin = req.headers.origin;
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    res.setHeader('vary', 'origin');
    const ok = origin !== undefined && (any || allowed.has(origin));
    if (ok) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-expose-headers', EXPOSE_HEADERS);
    }
    if (!preflight) return false;
    if (ok) {
      res.setHeader('access-control-allow-methods', ALLOW_METHODS);
      res.setHeader('access-control-allow-headers', ALLOW_HEADERS);
      res.setHeader('access-control-max-age', '600');
    }
    res.writeHead(204, { 'content-length': '0' });
    res.end();
    return true;
  };
}
