/**
 * Test helpers for the auth tests: keys, and tokens with arbitrary claims and headers (including ones that
 * signToken refuses to make).
 */
import type { JWTPayload } from 'jose';
import { SignJWT, base64url, exportSPKI, generateKeyPair } from 'jose';
import type { AppError } from '@coperto/errors';
import { expect } from 'vitest';

export const SECRET = 'unit-test-secret-that-is-at-least-32-bytes-long';
export const OTHER_SECRET = 'another-unit-test-secret-at-least-32-bytes-long';

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Claims of a valid token for tenant t1 expiring in an hour. */
export function validClaims(extra: JWTPayload = {}): JWTPayload {
  return { tenantId: 't1', sub: 'user-1', exp: nowSeconds() + 3600, ...extra };
}

/** Signs exactly these claims (no defaults added) with an HMAC secret. */
export async function hsToken(
  claims: JWTPayload,
  secret: string | Uint8Array = SECRET,
  alg: 'HS256' | 'HS384' | 'HS512' = 'HS256',
): Promise<string> {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

export type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export async function keyPair(
  alg: 'RS256' | 'PS256' | 'ES256' | 'ES384' | 'EdDSA',
): Promise<KeyPair & { pem: string }> {
  const pair = await generateKeyPair(alg, {
    extractable: true,
    ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}),
  });
  return { ...pair, pem: await exportSPKI(pair.publicKey) };
}

/** Signs these claims with an asymmetric private key. */
export async function asymmetricToken(
  claims: JWTPayload,
  privateKey: KeyPair['privateKey'],
  alg: string,
  kid?: string,
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg, typ: 'JWT', ...(kid ? { kid } : {}) })
    .sign(privateKey);
}

/** A token crafted by hand: any header, any claims, any signature segment. */
export function craftToken(header: Record<string, unknown>, claims: unknown, signature = ''): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${encode(header)}.${encode(claims)}.${signature}`;
}

/** Awaits `promise`, expects an UnauthenticatedError, and returns it for further checks. */
export async function expectUnauthenticated(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: 'UNAUTHENTICATED', status: 401, name: 'UnauthenticatedError' });
  return error as AppError;
}
