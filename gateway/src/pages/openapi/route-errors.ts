import { httpStatusOf, isErrorCode } from '@coperto/errors';
import type { RestRoute } from '../../rest/rest-route.js';

/**
 * Every error code a route can answer, by HTTP status: the ones any route can return, the body's, a read-one's
 * 404 and the route's own (route.docs.errors). Codes not (yet) in the error table are left out.
 */
export function routeErrors(
  route: Pick<RestRoute, 'method' | 'path'> & { docs: Pick<RestRoute['docs'], 'errors'> },
): Map<number, string[]> {
  // FORBIDDEN: any route refuses a channel key or a guest token whose role does not have it (docs/channels.md).
  const codes = [
    'VALIDATION_FAILED',
    'UNAUTHENTICATED',
    'FORBIDDEN',
    'RATE_LIMITED',
    'INTERNAL',
    'UNAVAILABLE',
  ];
  // Any request with a body is read (and refused) the same way, whether the route documents a body or not; any
  // write may lose every compare-and-set to other writers of its record (WRITE_CONFLICT, retryable).
  if (route.method !== 'GET') codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'WRITE_CONFLICT');
  if (route.path.includes('/:')) codes.push('NOT_FOUND');
  codes.push(...(route.docs.errors ?? []));
  const byStatus = new Map<number, string[]>();
  for (const code of new Set(codes)) {
    if (!isErrorCode(code)) continue;
    const status = httpStatusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The REST error body, with the codes one status can carry. */
export function errorBodySchema(codes: readonly string[]) {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: [...codes] },
          message: { type: 'string' },
          details: {
            description: 'What was wrong, e.g. `{fields: [{field, message}]}` for VALIDATION_FAILED',
          },
          requestId: { type: 'string', description: 'The `x-request-id` of the request' },
        },
      },
    },
  };
}
