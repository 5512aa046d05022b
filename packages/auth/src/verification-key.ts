import type { KeyObject } from 'node:crypto';
import { createPublicKey, webcrypto } from 'node:crypto';
import type { JWTVerifyGetKey, KeyInput } from 'jose';
import { createRemoteJWKSet, errors } from 'jose';
import type { AsymmetricAlgorithm, JwtAlgorithm } from './algorithms.js';
import { MIN_HMAC_SECRET_BYTES, isHmacAlgorithm } from './algorithms.js';
import type { AuthOptions, JwksOptions, PublicKeyOptions, SecretKeyOptions } from './auth-options.js';
import { AuthOptionsError } from './auth-options.js';
import { SigningKeysUnavailableError } from './jose-errors.js';

/** What jose verifies against: a secret, a public key, or a JWKS lookup by `kid`. */
export type VerificationKey = KeyInput | JWTVerifyGetKey;

/**
 * Builds the verification key for the options' key source, checking it against the pinned algorithms so a
 * bad key fails at startup, not on the first request.
 */
export function createVerificationKey(
  options: AuthOptions,
  algorithms: readonly JwtAlgorithm[],
): VerificationKey {
  switch (options.kind) {
    case 'secret':
      return secretKey(options, algorithms);
    case 'publicKey':
      return publicKey(options, algorithms);
    case 'jwks':
      return remoteKeySet(options);
  }
}

/**
 * The secret as one WebCrypto key per HMAC algorithm, imported once (jose would import a raw secret again on every
 * verification). jose checks the token's `alg` against the pinned algorithms before it asks for the key.
 */
function secretKey(options: SecretKeyOptions, algorithms: readonly JwtAlgorithm[]): JWTVerifyGetKey {
  if (typeof options.secret !== 'string' || options.secret.length === 0) {
    throw new AuthOptionsError('secret must be a non-empty string');
  }
  const bytes = new TextEncoder().encode(options.secret);
  for (const alg of algorithms) {
    const min = isHmacAlgorithm(alg) ? MIN_HMAC_SECRET_BYTES[alg] : 0;
    if (bytes.length < min) throw new AuthOptionsError(`secret must be at least ${min} bytes for ${alg}`);
  }
  const keys = new Map<string, Promise<webcrypto.CryptoKey>>();
  return (header) => {
    const alg = header.alg;
    if (!isHmacAlgorithm(alg) || !algorithms.includes(alg)) {
      throw new errors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed');
    }
    let key = keys.get(alg);
    if (key === undefined) {
      const hash = `SHA-${alg.slice(2)}`;
      key = webcrypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash }, false, ['verify']);
      keys.set(alg, key);
    }
    return key;
  };
}

/** Asymmetric key type (and curve) each algorithm needs. */
function keyFits(key: KeyObject, alg: AsymmetricAlgorithm): boolean {
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (alg.startsWith('RS')) return type === 'rsa';
  if (alg.startsWith('PS')) return type === 'rsa' || type === 'rsa-pss';
  if (alg === 'ES256') return type === 'ec' && curve === 'prime256v1';
  if (alg === 'ES384') return type === 'ec' && curve === 'secp384r1';
  if (alg === 'ES512') return type === 'ec' && curve === 'secp521r1';
  return type === 'ed25519';
}

function publicKey(options: PublicKeyOptions, algorithms: readonly JwtAlgorithm[]): KeyObject {
  if (typeof options.pem !== 'string') throw new AuthOptionsError('pem must be a string');
  const pem = options.pem.replace(/\\n/g, '\n').trim();
  if (/PRIVATE KEY/.test(pem)) {
    throw new AuthOptionsError('pem holds a private key: configure the public key only');
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new AuthOptionsError('pem is not a PEM public key or certificate');
  }
  for (const alg of algorithms) {
    if (isHmacAlgorithm(alg) || !keyFits(key, alg)) {
      throw new AuthOptionsError(`The ${key.asymmetricKeyType ?? 'unknown'} public key cannot verify ${alg}`);
    }
  }
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (bits !== undefined && bits < 2048)
    throw new AuthOptionsError('RSA public keys must have at least 2048 bits');
  return key;
}

function remoteKeySet(options: JwksOptions): JWTVerifyGetKey {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new AuthOptionsError('JWKS url is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AuthOptionsError('JWKS url must use https: (or http: for a local endpoint)');
  }
  const remote = createRemoteJWKSet(url, {
    timeoutDuration: positive('timeoutMs', options.timeoutMs, 5_000),
    cooldownDuration: positive('cooldownMs', options.cooldownMs, 30_000),
    cacheMaxAge: positive('cacheMaxAgeMs', options.cacheMaxAgeMs, 600_000),
  });
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      // "No key with that kid" is the token's fault; anything else (timeout, non-200, bad JSON) is the endpoint's.
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
        throw error;
      throw new SigningKeysUnavailableError(error);
    }
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new AuthOptionsError(`${name} must be a number >= 0`);
  return value;
}
