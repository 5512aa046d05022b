import type { AsymmetricAlgorithm, HmacAlgorithm } from './algorithms.js';
import { isAsymmetricAlgorithm, isHmacAlgorithm } from './algorithms.js';
import type { AuthOptions, VerificationPolicy } from './auth-options.js';
import { AuthOptionsError } from './auth-options.js';

/**
 * Auth settings as a process's config.ts reads them from the environment (the conventional variable names
 * are in brackets). At most one of secret, publicKeyPem and jwksUrl may be set.
 */
export interface AuthSettings extends VerificationPolicy {
  /** [JWT_SECRET] HMAC secret. */
  secret?: string | undefined;
  /** [JWT_PUBLIC_KEY] PEM public key or certificate. */
  publicKeyPem?: string | undefined;
  /** [JWT_JWKS_URL] JWKS endpoint. */
  jwksUrl?: string | undefined;
  /** [JWT_ALGORITHMS] pinned algorithms; required with a public key, defaulted otherwise. */
  algorithms?: readonly string[] | undefined;
}

/**
 * Picks the key source from settings: exactly one of secret / public key / JWKS URL, or, when none is set,
 * `fallbackSecret` if given (embedded mode passes the secret it keeps in DATA_DIR, embedded-secret.ts). Throws an
 * AuthOptionsError naming the variables when the choice is ambiguous or impossible. The returned options
 * are checked further by createTokenVerifier.
 */
export function authOptionsFromSettings(
  settings: AuthSettings,
  fallback: { fallbackSecret?: string } = {},
): AuthOptions {
  const { secret, publicKeyPem, jwksUrl, algorithms, ...policy } = settings;
  const given = [
    secret !== undefined ? 'JWT_SECRET' : undefined,
    publicKeyPem !== undefined ? 'JWT_PUBLIC_KEY' : undefined,
    jwksUrl !== undefined ? 'JWT_JWKS_URL' : undefined,
  ].filter((name) => name !== undefined);
  if (given.length > 1) throw new AuthOptionsError(`Set only one of ${given.join(', ')}`);
  const cleanPolicy = Object.fromEntries(
    Object.entries(policy).filter(([, value]) => value !== undefined),
  ) as VerificationPolicy;

  if (publicKeyPem !== undefined) {
    const pinned = asymmetric(algorithms);
    const [algorithm] = pinned ?? [];
    if (algorithm === undefined) throw new AuthOptionsError('JWT_ALGORITHMS is required with JWT_PUBLIC_KEY');
    return {
      kind: 'publicKey',
      pem: publicKeyPem,
      algorithm,
      algorithms: pinned ?? [algorithm],
      ...cleanPolicy,
    };
  }
  if (jwksUrl !== undefined) {
    const pinned = asymmetric(algorithms);
    return { kind: 'jwks', url: jwksUrl, ...(pinned ? { algorithms: pinned } : {}), ...cleanPolicy };
  }
  const chosen = secret ?? fallback.fallbackSecret;
  if (chosen === undefined) throw new AuthOptionsError('Set one of JWT_SECRET, JWT_PUBLIC_KEY, JWT_JWKS_URL');
  const pinned = hmac(algorithms);
  return { kind: 'secret', secret: chosen, ...(pinned ? { algorithms: pinned } : {}), ...cleanPolicy };
}

function asymmetric(algorithms: readonly string[] | undefined): AsymmetricAlgorithm[] | undefined {
  if (algorithms === undefined) return undefined;
  for (const alg of algorithms) {
    if (!isAsymmetricAlgorithm(alg)) {
      throw new AuthOptionsError(`JWT_ALGORITHMS: ${alg} cannot be used with a public key or JWKS`);
    }
  }
  return [...algorithms] as AsymmetricAlgorithm[];
}

function hmac(algorithms: readonly string[] | undefined): HmacAlgorithm[] | undefined {
  if (algorithms === undefined) return undefined;
  for (const alg of algorithms) {
    if (!isHmacAlgorithm(alg))
      throw new AuthOptionsError(`JWT_ALGORITHMS: ${alg} cannot be used with JWT_SECRET`);
  }
  return [...algorithms] as HmacAlgorithm[];
}
