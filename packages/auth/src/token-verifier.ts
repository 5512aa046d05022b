import type { JWTVerifyOptions } from 'jose';
import { jwtVerify } from 'jose';
import { UnauthenticatedError } from '@coperto/errors';
import type { AuthOptions } from './auth-options.js';
import { resolvePolicy } from './auth-options.js';
import { bearerTokenOf } from './bearer.js';
import { viewerFromClaims } from './claims.js';
import { toUnauthenticated } from './jose-errors.js';
import { createVerificationKey } from './verification-key.js';
import type { BoundedStats } from '@coperto/async';
import { createVerifiedTokenCache } from './verified-token-cache.js';
import type { Viewer } from './viewer.js';

/** Verifies bearer tokens and turns them into Viewers. Every refusal is an UnauthenticatedError. */
export interface TokenVerifier {
  /** Verifies a compact JWT (without the `Bearer ` prefix). */
  verify(token: string): Promise<Viewer>;
  /** Verifies the value of an HTTP `Authorization` header, which must be `Bearer <token>`. */
  verifyAuthorizationHeader(header: string | undefined): Promise<Viewer>;
  /**
   * The bounded memories it keeps, by name (docs/scaling.md): `verified_tokens`, and for the service tokens'
   * verifier `service_verified_tokens` and `channel_directory` too. The hosting process reports each.
   */
  bounded(): Readonly<Record<string, BoundedStats>>;
}

/** Three base64url segments; the signature may not be empty (so `alg: none` tokens stop here). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The clock the verifier reads (tests step it over `exp`). */
export interface VerifierClock {
  now(): number;
}

/**
 * Creates a verifier for one key source. The options are checked now (algorithms pinned, never `none`, the
 * key suits the algorithms), so a misconfigured process fails at startup with an AuthOptionsError.
 *
 * A token is accepted only if: it is at most `maxTokenLength` characters; its `alg` is one of the pinned
 * algorithms; its signature verifies; it has `exp`, not past (with `clockToleranceSeconds`), and `nbf`, if
 * present, not in the future; `iss`/`aud` match when configured; `tenantId` is a valid tenant id. A token
 * verified before is served from the verified-token cache (see `VerifiedTokenCache`) while its `exp` allows.
 */
export function createTokenVerifier(
  options: AuthOptions,
  clock: VerifierClock = { now: Date.now },
): TokenVerifier {
  const policy = resolvePolicy(options);
  const key = createVerificationKey(options, policy.algorithms);
  const verified = createVerifiedTokenCache(policy.verifiedTokenCache);
  const toleranceMs = policy.clockToleranceSeconds * 1000;
  const joseOptions: JWTVerifyOptions = {
    algorithms: policy.algorithms,
    requiredClaims: ['exp'],
    clockTolerance: policy.clockToleranceSeconds,
    ...(policy.issuer === undefined ? {} : { issuer: policy.issuer }),
    ...(policy.audience === undefined ? {} : { audience: policy.audience }),
  };

  async function verify(token: string): Promise<Viewer> {
    if (typeof token !== 'string' || token.length === 0)
      throw new UnauthenticatedError('Missing bearer token');
    if (token.length > policy.maxTokenLength) throw new UnauthenticatedError('Token too large');
    const now = clock.now();
    const known = verified.get(token, now);
    if (known !== undefined) return known;
    if (!COMPACT_JWS.test(token)) throw new UnauthenticatedError('Malformed token');
    try {
      const { payload } = await jwtVerify(token, key, { ...joseOptions, currentDate: new Date(now) });
      const viewer = viewerFromClaims(payload, token);
      // jose refuses a token once now - tolerance >= exp (whole seconds); exp is required, so it is a number here.
      verified.set(token, viewer, (payload.exp as number) * 1000 + toleranceMs, now);
      return viewer;
    } catch (error) {
      throw toUnauthenticated(error);
    }
  }

  async function verifyAuthorizationHeader(header: string | undefined): Promise<Viewer> {
    return verify(bearerTokenOf(header, policy.maxTokenLength));
  }

  return Object.freeze({
    verify,
    verifyAuthorizationHeader,
    bounded: () => ({ verified_tokens: verified.stats() }),
  });
}
