import { MIN_HMAC_SECRET_BYTES } from './algorithms.js';
import { AuthOptionsError } from './auth-options.js';
import { loadOrCreateEmbeddedSecret, type EmbeddedSecret } from './embedded-secret.js';

/** File in DATA_DIR holding the service-token key of an embedded installation without SERVICE_TOKEN_SECRET. */
export const SERVICE_TOKEN_KEY_FILE = 'service-token-key';

/**
 * The key the service signs and verifies its own tokens with (channel keys, guest tokens): `configured`
 * (SERVICE_TOKEN_SECRET) when set; else, in embedded mode, a random 256-bit key created in `<dataDir>/service-token-key`
 * (mode 0600) on the first start and reused, like the embedded JWT secret; distributed mode refuses to start
 * without one. It must differ from the staff secret (JWT_SECRET or the embedded one): with one key for both, a
 * staff token could be made to look like a service token.
 */
export function resolveServiceTokenKey(settings: {
  configured: string | undefined;
  mode: 'embedded' | 'distributed';
  dataDir: string;
  staffSecret: string | undefined;
}): { secret: string; embedded: EmbeddedSecret | undefined } {
  const { configured, mode, dataDir, staffSecret } = settings;
  let secret: string;
  let embedded: EmbeddedSecret | undefined;
  if (configured !== undefined && configured !== '') {
    secret = configured;
  } else if (mode === 'embedded') {
    embedded = loadOrCreateEmbeddedSecret(dataDir, SERVICE_TOKEN_KEY_FILE);
    secret = embedded.secret;
  } else {
    throw new AuthOptionsError(
      'SERVICE_TOKEN_SECRET is required in distributed mode (at least 32 characters)',
    );
  }
  if (new TextEncoder().encode(secret).length < MIN_HMAC_SECRET_BYTES.HS256) {
    throw new AuthOptionsError(`SERVICE_TOKEN_SECRET must be at least ${MIN_HMAC_SECRET_BYTES.HS256} bytes`);
  }
  if (staffSecret !== undefined && secret === staffSecret) {
    throw new AuthOptionsError('SERVICE_TOKEN_SECRET must differ from the staff token secret (JWT_SECRET)');
  }
  return { secret, embedded };
}
