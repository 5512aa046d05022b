import { authOptionsFromSettings, EMBEDDED_DEV_SECRET, type AuthOptions } from '@coperto/auth';
import type { ServiceConfig } from './service-config.js';

/**
 * Auth options from the JWT_* variables (exactly one key source). With none, embedded mode falls back to the
 * public dev secret (the caller says so loudly); distributed mode refuses to start.
 */
export function authOptionsFromConfig(
  config: ServiceConfig,
  mode: 'embedded' | 'distributed',
): { options: AuthOptions; usesDevSecret: boolean } {
  const usesDevSecret =
    mode === 'embedded' && !config.JWT_SECRET && !config.JWT_PUBLIC_KEY && !config.JWT_JWKS_URL;
  const options = authOptionsFromSettings(
    {
      secret: config.JWT_SECRET,
      publicKeyPem: config.JWT_PUBLIC_KEY,
      jwksUrl: config.JWT_JWKS_URL,
      algorithms: config.JWT_ALGORITHMS?.map(String),
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
    },
    usesDevSecret ? { fallbackSecret: EMBEDDED_DEV_SECRET } : {},
  );
  return { options, usesDevSecret };
}
