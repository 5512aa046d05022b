import {
  authOptionsFromSettings,
  loadOrCreateEmbeddedSecret,
  type AuthOptions,
  type EmbeddedSecret,
} from '@coperto/auth';
import type { ServiceConfig } from './service-config.js';

/**
 * Auth options from the JWT_* variables (exactly one key source). With none, embedded mode uses the random
 * secret it keeps in DATA_DIR (created on the first start; the caller logs where); distributed mode refuses
 * to start (its config does not load, see keySourceIssues).
 */
export function authOptionsFromConfig(
  config: ServiceConfig,
  mode: 'embedded' | 'distributed',
): { options: AuthOptions; embeddedSecret: EmbeddedSecret | undefined } {
  const embeddedSecret =
    mode === 'embedded' && !hasKeySource(config) ? loadOrCreateEmbeddedSecret(config.DATA_DIR) : undefined;
  const options = authOptionsFromSettings(
    {
      secret: config.JWT_SECRET,
      publicKeyPem: config.JWT_PUBLIC_KEY,
      jwksUrl: config.JWT_JWKS_URL,
      algorithms: config.JWT_ALGORITHMS?.map(String),
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
    },
    embeddedSecret ? { fallbackSecret: embeddedSecret.secret } : {},
  );
  return { options, embeddedSecret };
}

export function hasKeySource(config: Pick<ServiceConfig, 'JWT_SECRET' | 'JWT_PUBLIC_KEY' | 'JWT_JWKS_URL'>) {
  return Boolean(config.JWT_SECRET || config.JWT_PUBLIC_KEY || config.JWT_JWKS_URL);
}
