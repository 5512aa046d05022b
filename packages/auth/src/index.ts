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
export type { ChannelOrigine, ServiceGrant, ServiceRole } from './service-grant.js';
export {
  CHANNEL_ORIGINI,
  CHANNEL_ROLE,
  GOOGLE_ROLE,
  GUEST_ROLE,
  PAYMENTS_ROLE,
  PRIVACY_ROLE,
  SERVICE_ROLES,
  SERVICE_TOKEN_ISSUER,
  isServiceRole,
} from './service-grant.js';
export type { IssuedToken, ServiceTokenIssuer } from './service-token-issuer.js';
export {
  CHANNEL_KEY_LIFETIME_SECONDS,
  PAYMENTS_TOKEN_LIFETIME_SECONDS,
  PRIVACY_TOKEN_LIFETIME_SECONDS,
  GOOGLE_TOKEN_LIFETIME_SECONDS,
  createServiceTokenIssuer,
} from './service-token-issuer.js';
export type { ServiceTokenVerifierOptions } from './service-token-verifier.js';
export { createServiceTokenVerifier } from './service-token-verifier.js';
export type { ChannelDirectory, CachedChannelDirectoryOptions } from './channel-directory.js';
export { cachedChannelDirectory } from './channel-directory.js';
export { combineTokenVerifiers } from './combined-verifier.js';
export { SERVICE_TOKEN_KEY_FILE, resolveServiceTokenKey } from './service-token-key.js';
export { SERVICE_ROLE_FIELDS, forbiddenRootFields } from './service-rights.js';
