import { errors } from 'jose';
import { UnauthenticatedError } from '@coperto/errors';

const messages: Record<string, string> = {
  ERR_JWT_EXPIRED: 'Token expired',
  ERR_JOSE_ALG_NOT_ALLOWED: 'Token algorithm not allowed',
  ERR_JOSE_NOT_SUPPORTED: 'Token uses an unsupported feature',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'Token signature is invalid',
  ERR_JWS_INVALID: 'Malformed token',
  ERR_JWT_INVALID: 'Malformed token',
  ERR_JWKS_NO_MATCHING_KEY: 'No signing key matches the token',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'Token does not name its signing key (kid)',
};

/** The JWKS endpoint could not be read (timeout, non-200 answer, invalid JSON). Still a 401 for the caller. */
export class SigningKeysUnavailableError extends Error {
  constructor(cause: unknown) {
    super('Signing keys unavailable', { cause });
    this.name = 'SigningKeysUnavailableError';
  }
}

/**
 * Any failure while verifying becomes an UnauthenticatedError (401) with a short, fixed message: no key
 * material, no claim values, no jose internals. The original error is kept as `cause` for server-side logs.
 */
export function toUnauthenticated(error: unknown): UnauthenticatedError {
  if (error instanceof UnauthenticatedError) return error;
  if (error instanceof SigningKeysUnavailableError)
    return new UnauthenticatedError(error.message, { cause: error });
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = ['exp', 'nbf', 'iat', 'iss', 'aud', 'sub'].includes(error.claim) ? error.claim : 'claim';
    const message =
      error.reason === 'missing' ? `Token has no ${claim} claim` : `Token ${claim} claim check failed`;
    return new UnauthenticatedError(message, { cause: error });
  }
  const code = error instanceof errors.JOSEError ? error.code : undefined;
  const message = (code && messages[code]) ?? 'Invalid token';
  return new UnauthenticatedError(message, { cause: error });
}
