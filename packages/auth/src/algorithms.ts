/** HMAC algorithms: verified with a shared secret. */
export const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;

/** Asymmetric algorithms: verified with a public key (PEM or JWKS). */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];
export type AsymmetricAlgorithm = (typeof ASYMMETRIC_ALGORITHMS)[number];
/** Every algorithm a verifier may be pinned to. `none` is not one of them. */
export type JwtAlgorithm = HmacAlgorithm | AsymmetricAlgorithm;

export function isHmacAlgorithm(value: unknown): value is HmacAlgorithm {
  return (HMAC_ALGORITHMS as readonly unknown[]).includes(value);
}

export function isAsymmetricAlgorithm(value: unknown): value is AsymmetricAlgorithm {
  return (ASYMMETRIC_ALGORITHMS as readonly unknown[]).includes(value);
}

/** RFC 7518 §3.2: an HMAC key must be at least as long as the hash output. */
export const MIN_HMAC_SECRET_BYTES: Record<HmacAlgorithm, number> = { HS256: 32, HS384: 48, HS512: 64 };
