import type { AsymmetricAlgorithm, HmacAlgorithm, JwtAlgorithm } from './algorithms.js';
import { isAsymmetricAlgorithm, isHmacAlgorithm } from './algorithms.js';
import type { VerifiedTokenCacheOptions } from './verified-token-cache.js';
import { DEFAULT_VERIFIED_TOKEN_CACHE } from './verified-token-cache.js';

/** Checks shared by every key source. */
export interface VerificationPolicy {
  /** Expected `iss`; when set, the claim is required and must match (one of) it. */
  issuer?: string | readonly string[];
  /** Expected `aud`; when set, the claim is required and must contain (one of) it. */
  audience?: string | readonly string[];
  /** Allowed clock skew for `exp` and `nbf`, in seconds. @default 5 */
  clockToleranceSeconds?: number;
  /** Longest token accepted, in characters; longer ones are refused before any parsing or crypto. @default 8192 */
  maxTokenLength?: number;
  /**
   * Remember verified tokens (by their exact text) so a repeated token skips the signature check; `exp` is still
   * checked on every use. `false` verifies every request from scratch.
   * @default { maxEntries: 10000, maxAgeSeconds: 60 }
   */
  verifiedTokenCache?: VerifiedTokenCacheOptions | false;
}

/** HMAC with a shared secret (`JWT_SECRET`). At least 32 bytes for HS256 (48 for HS384, 64 for HS512). */
export interface SecretKeyOptions extends VerificationPolicy {
  kind: 'secret';
  secret: string;
  /** @default ['HS256'] */
  algorithms?: readonly HmacAlgorithm[];
}

/** One public key in PEM form: SPKI (`BEGIN PUBLIC KEY`), PKCS#1 RSA or an X.509 certificate. */
export interface PublicKeyOptions extends VerificationPolicy {
  kind: 'publicKey';
  /** The PEM text; literal `\n` sequences (as often found in env vars) are turned into newlines. */
  pem: string;
  /** The issuer's algorithm; the key's type must suit it (RSA for RS/PS, P-256 for ES256, Ed25519 for EdDSA). */
  algorithm: AsymmetricAlgorithm;
  /** To accept several algorithms with the same key (e.g. RS256 and PS256). @default [algorithm] */
  algorithms?: readonly AsymmetricAlgorithm[];
}

/** Keys fetched from the issuer's JWKS endpoint, selected by the token's `kid`, cached and refreshed by jose. */
export interface JwksOptions extends VerificationPolicy {
  kind: 'jwks';
  /** `https:` (or `http:` for a sidecar / local test server) URL of the JSON Web Key Set. */
  url: string;
  /** @default ['RS256', 'ES256', 'EdDSA'] */
  algorithms?: readonly AsymmetricAlgorithm[];
  /** How long a fetch may take before the token is refused. @default 5000 */
  timeoutMs?: number;
  /** Minimum time between two fetches, so unknown `kid`s cannot hammer the issuer. @default 30000 */
  cooldownMs?: number;
  /** How long a fetched key set is trusted before it is fetched again. @default 600000 */
  cacheMaxAgeMs?: number;
}

/** Exactly one key source (by `kind`) plus the verification policy. */
export type AuthOptions = SecretKeyOptions | PublicKeyOptions | JwksOptions;

export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;
export const DEFAULT_MAX_TOKEN_LENGTH = 8 * 1024;
export const DEFAULT_JWKS_ALGORITHMS: readonly AsymmetricAlgorithm[] = ['RS256', 'ES256', 'EdDSA'];

/** A verifier was configured wrongly (no key, `none`, HS with a public key, …). Thrown at construction. */
export class AuthOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthOptionsError';
  }
}

/** The policy with defaults applied and every value checked. */
export interface ResolvedPolicy {
  algorithms: JwtAlgorithm[];
  issuer: string | string[] | undefined;
  audience: string | string[] | undefined;
  clockToleranceSeconds: number;
  maxTokenLength: number;
  verifiedTokenCache: Required<VerifiedTokenCacheOptions>;
}

/**
 * Applies defaults and checks the options: algorithms pinned and non-empty, never `none`, HMAC only with a
 * secret and asymmetric only with a public key or JWKS (so a token can never switch between the two).
 */
export function resolvePolicy(options: AuthOptions): ResolvedPolicy {
  const algorithms = pinnedAlgorithms(options);
  const clockToleranceSeconds = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!Number.isFinite(clockToleranceSeconds) || clockToleranceSeconds < 0) {
    throw new AuthOptionsError('clockToleranceSeconds must be a number >= 0');
  }
  const maxTokenLength = options.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH;
  if (!Number.isSafeInteger(maxTokenLength) || maxTokenLength < 1) {
    throw new AuthOptionsError('maxTokenLength must be a positive integer');
  }
  return {
    algorithms,
    issuer: claimValues('issuer', options.issuer),
    audience: claimValues('audience', options.audience),
    clockToleranceSeconds,
    maxTokenLength,
    verifiedTokenCache: verifiedTokenCacheOptions(options.verifiedTokenCache),
  };
}

function verifiedTokenCacheOptions(
  value: VerifiedTokenCacheOptions | false | undefined,
): Required<VerifiedTokenCacheOptions> {
  if (value === false) return { maxEntries: 0, maxAgeSeconds: 0 };
  const maxEntries = value?.maxEntries ?? DEFAULT_VERIFIED_TOKEN_CACHE.maxEntries;
  const maxAgeSeconds = value?.maxAgeSeconds ?? DEFAULT_VERIFIED_TOKEN_CACHE.maxAgeSeconds;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 0) {
    throw new AuthOptionsError('verifiedTokenCache.maxEntries must be an integer >= 0');
  }
  if (!Number.isFinite(maxAgeSeconds) || maxAgeSeconds < 0) {
    throw new AuthOptionsError('verifiedTokenCache.maxAgeSeconds must be a number >= 0');
  }
  return { maxEntries, maxAgeSeconds };
}

function pinnedAlgorithms(options: AuthOptions): JwtAlgorithm[] {
  const kind = (options as { kind: unknown }).kind;
  let algorithms: readonly unknown[] | undefined;
  let fits: (alg: unknown) => boolean;
  switch (kind) {
    case 'secret':
      algorithms = options.algorithms ?? ['HS256'];
      fits = isHmacAlgorithm;
      break;
    case 'publicKey': {
      const { algorithm } = options as PublicKeyOptions;
      if (!isAsymmetricAlgorithm(algorithm)) {
        throw new AuthOptionsError(`publicKey needs an asymmetric algorithm, got ${String(algorithm)}`);
      }
      algorithms = options.algorithms ?? [algorithm];
      fits = isAsymmetricAlgorithm;
      break;
    }
    case 'jwks':
      algorithms = options.algorithms ?? DEFAULT_JWKS_ALGORITHMS;
      fits = isAsymmetricAlgorithm;
      break;
    default:
      throw new AuthOptionsError(`Unknown key source kind ${String(kind)}: use secret, publicKey or jwks`);
  }
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw new AuthOptionsError('algorithms must list at least one algorithm');
  }
  for (const alg of algorithms) {
    if (typeof alg === 'string' && alg.toLowerCase() === 'none') {
      throw new AuthOptionsError('Algorithm "none" is never accepted');
    }
    if (!fits(alg)) {
      const family =
        kind === 'secret' ? 'HS256, HS384 or HS512' : 'an asymmetric algorithm (RS*, PS*, ES*, EdDSA)';
      throw new AuthOptionsError(`Algorithm ${String(alg)} cannot be used with a ${kind} key: use ${family}`);
    }
  }
  return [...new Set(algorithms as JwtAlgorithm[])];
}

function claimValues(
  name: string,
  value: string | readonly string[] | undefined,
): string | string[] | undefined {
  if (value === undefined) return undefined;
  const values = typeof value === 'string' ? [value] : [...value];
  if (values.length === 0 || values.some((v) => typeof v !== 'string' || v.length === 0)) {
    throw new AuthOptionsError(`${name} must be a non-empty string or a list of them`);
  }
  return typeof value === 'string' ? value : values;
}
