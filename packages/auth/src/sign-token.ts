import { SignJWT } from 'jose';
import { MIN_HMAC_SECRET_BYTES } from './algorithms.js';
import { isValidTenantId } from './tenant-id.js';

/** Options of `signToken`. */
export interface SignTokenOptions {
  /** HS256 secret, at least 32 bytes (e.g. JWT_SECRET, the embedded secret in DATA_DIR, testkit's TEST_JWT_SECRET). */
  secret: string;
  /** Must match TENANT_ID_PATTERN. */
  tenantId: string;
  /** Adds `"admin"` to the `roles` claim. */
  admin?: boolean;
  /** More roles for the `roles` claim. */
  roles?: readonly string[];
  /** `sub` claim. */
  subject?: string;
  /** A jose time span (`'12h'`, `'30m'`, `'90s'`) or a number of seconds from now (negative = already expired). @default '12h' */
  expiresIn?: string | number;
  issuer?: string;
  audience?: string | string[];
  /** Any other claims (e.g. `nbf`, `role`). They cannot override tenantId, iat, exp, roles (when given), sub, iss, aud (when set). */
  extraClaims?: Record<string, unknown>;
}

/**
 * Signs an HS256 JWT with Coperto's claims, for the dev-token command and tests. Production tokens come
 * from the customer's identity provider.
 */
export async function signToken(options: SignTokenOptions): Promise<string> {
  const {
    secret,
    tenantId,
    admin = false,
    roles = [],
    subject,
    expiresIn = '12h',
    issuer,
    audience,
  } = options;
  if (typeof secret !== 'string' || new TextEncoder().encode(secret).length < MIN_HMAC_SECRET_BYTES.HS256) {
    throw new TypeError(`secret must be at least ${MIN_HMAC_SECRET_BYTES.HS256} bytes`);
  }
  if (!isValidTenantId(tenantId)) throw new TypeError('tenantId must be 1-64 characters of A-Z a-z 0-9 _ -');
  const allRoles = [...new Set([...(admin ? ['admin'] : []), ...roles])];
  const claims: Record<string, unknown> = {
    ...options.extraClaims,
    tenantId,
    ...(allRoles.length > 0 ? { roles: allRoles } : {}),
  };
  // One reading of the clock for iat and a numeric expiry (two readings can straddle a second). A time span is
  // jose's to read, from its own reading: its exp may be one second later than iat + span.
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(now);
  jwt.setExpirationTime(typeof expiresIn === 'number' ? now + expiresIn : expiresIn);
  if (subject !== undefined) jwt.setSubject(subject);
  if (issuer !== undefined) jwt.setIssuer(issuer);
  if (audience !== undefined) jwt.setAudience(audience);
  return jwt.sign(new TextEncoder().encode(secret));
}
