export type { TenantId, Viewer } from './viewer.js';
export { trustedTenantId } from './viewer.js';
export { TENANT_ID_PATTERN, isValidTenantId } from './tenant-id.js';
export type { HmacAlgorithm, AsymmetricAlgorithm, JwtAlgorithm } from './algorithms.js';
export { HMAC_ALGORITHMS, ASYMMETRIC_ALGORITHMS } from './algorithms.js';
export type {
  AuthOptions,
  SecretKeyOptions,
  PublicKeyOptions,
  JwksOptions,
  VerificationPolicy,
} from './auth-options.js';
export {
  AuthOptionsError,
  DEFAULT_CLOCK_TOLERANCE_SECONDS,
  DEFAULT_MAX_TOKEN_LENGTH,
  DEFAULT_JWKS_ALGORITHMS,
} from './auth-options.js';
export type { AuthSettings } from './auth-settings.js';
export { authOptionsFromSettings } from './auth-settings.js';
export type { TokenVerifier, VerifierClock } from './token-verifier.js';
export type { VerifiedTokenCacheOptions } from './verified-token-cache.js';
export { createTokenVerifier } from './token-verifier.js';
export { requireAdmin } from './require-admin.js';
export type { SignTokenOptions } from './sign-token.js';
export { signToken } from './sign-token.js';
export type { EmbeddedSecret } from './embedded-secret.js';
export {
  EMBEDDED_SECRET_FILE,
  EmbeddedSecretMissingError,
  embeddedSecretPath,
  loadOrCreateEmbeddedSecret,
  readEmbeddedSecret,
} from './embedded-secret.js';
