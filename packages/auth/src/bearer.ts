import { UnauthenticatedError } from '@coperto/errors';

/** RFC 6750 §2.1: `Bearer` (any case), one or more spaces, a b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The token of an HTTP `Authorization` header, which must be `Bearer <token>`; an UnauthenticatedError otherwise.
 * A header much longer than `maxTokenLength` is refused before the regular expression runs.
 */
export function bearerTokenOf(header: string | undefined, maxTokenLength: number): string {
  if (typeof header !== 'string' || header.trim() === '')
    throw new UnauthenticatedError('Missing bearer token');
  if (header.length > maxTokenLength + 64) throw new UnauthenticatedError('Token too large');
  const token = BEARER.exec(header.trim())?.[1];
  if (token === undefined) throw new UnauthenticatedError('Authorization header must be "Bearer <token>"');
  return token;
}
