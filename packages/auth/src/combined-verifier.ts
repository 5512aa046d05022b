import { decodeJwt } from 'jose';
import { UnauthenticatedError } from '@coperto/errors';
import { bearerTokenOf } from './bearer.js';
import { isServiceRole, SERVICE_TOKEN_ISSUER } from './service-grant.js';
import type { TokenVerifier } from './token-verifier.js';
import type { Viewer } from './viewer.js';

/**
 * One verifier for both kinds of token a process accepts, told apart by their issuer: a token whose `iss` is
 * SERVICE_TOKEN_ISSUER goes to the service verifier (the service key only), any other to the staff verifier (the
 * configured JWT key only). So a staff token cannot pass for a service token (it is not signed with the service
 * key), nor a service token for a staff token (it names the service issuer, so the staff key is never tried). A
 * staff token that claims a service role (`channel`, `guest`) is refused: those roles come only from the service.
 *
 * `maxTokenLength`: the staff verifier's (the header is read here once).
 */
export function combineTokenVerifiers(
  verifiers: { staff: TokenVerifier; service: TokenVerifier },
  options: { maxTokenLength: number },
): TokenVerifier {
  const { staff, service } = verifiers;

  async function verify(token: string): Promise<Viewer> {
    if (issuerOf(token, options.maxTokenLength) === SERVICE_TOKEN_ISSUER) return service.verify(token);
    const viewer = await staff.verify(token);
    if (viewer.roles.some(isServiceRole)) throw new UnauthenticatedError('Token role claim is reserved');
    return viewer;
  }

  return Object.freeze({
    verify,
    verifyAuthorizationHeader: async (header: string | undefined) =>
      verify(bearerTokenOf(header, options.maxTokenLength)),
    bounded: () => {
      const { verified_tokens: serviceTokens, ...serviceRest } = service.bounded();
      return {
        ...staff.bounded(),
        ...(serviceTokens ? { service_verified_tokens: serviceTokens } : {}),
        ...serviceRest,
      };
    },
  });
}

/** The unverified `iss` of a token, to route it; undefined when there is none or the token does not decode. */
function issuerOf(token: string, maxTokenLength: number): unknown {
  if (typeof token !== 'string' || token.length > maxTokenLength) return undefined;
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
}
