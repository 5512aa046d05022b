/**
 * Tokens for tests: a test-only secret, a minting helper built on @coperto/auth's signToken, and helpers to
 * craft the invalid tokens that refusal tests need. Processes under test are configured with
 * `JWT_SECRET=TEST_JWT_SECRET`.
 */
import { randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { SignJWT, base64url } from 'jose';
import type { SignTokenOptions } from '@coperto/auth';
import { signToken } from '@coperto/auth';

/** The HS256 secret of every test process. Test-only: never configure it anywhere else. */
export const TEST_JWT_SECRET = 'coperto-test-jwt-secret-for-automated-tests-only';

/** The key of the tokens test processes issue themselves (SERVICE_TOKEN_SECRET): channel keys, guest tokens. */
export const TEST_SERVICE_TOKEN_SECRET = 'coperto-test-service-token-secret-for-tests-only';

/** Options of `mintToken`: signToken's, with the secret defaulting to TEST_JWT_SECRET. */
export type MintTokenOptions = Omit<SignTokenOptions, 'secret'> & { secret?: string };

/**
 * A valid HS256 token for `tenantId` (12 h, no admin unless `admin: true`), signed with TEST_JWT_SECRET.
 * @example const token = await mintToken({ tenantId: newTenantId(), admin: true });
 */
export function mintToken(options: MintTokenOptions): Promise<string> {
  return signToken({ ...options, secret: options.secret ?? TEST_JWT_SECRET });
}

/** `Bearer <token>`, the value of an Authorization header. */
export function bearer(token: string): string {
  return `Bearer ${token}`;
}

/** A fresh, valid tenant id (`t_` + 10 hex characters), so each test owns its data. */
export function newTenantId(): string {
  return `t_${randomBytes(5).toString('hex')}`;
}

/**
 * Signs exactly `claims` (nothing added: no exp, no iat, no checks) with an HMAC secret, for tests of
 * refusals: no exp, missing or malformed tenantId, wrong iss/aud, future nbf…
 */
export function mintRawToken(
  claims: JWTPayload,
  options: { secret?: string; alg?: 'HS256' | 'HS384' | 'HS512'; header?: Record<string, unknown> } = {},
): Promise<string> {
  const { secret = TEST_JWT_SECRET, alg = 'HS256', header = {} } = options;
  return new SignJWT(claims)
    .setProtectedHeader({ typ: 'JWT', ...header, alg })
    .sign(new TextEncoder().encode(secret));
}

/** An unsigned `alg: none` token (empty signature segment), which every verifier must refuse. */
export function unsignedToken(claims: JWTPayload): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}
