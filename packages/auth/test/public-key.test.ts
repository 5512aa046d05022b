import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { AuthOptionsError, createTokenVerifier, type AuthOptions } from '../src/index.js';
import type { KeyPair } from './helpers.js';
import {
  SECRET,
  asymmetricToken,
  craftToken,
  expectUnauthenticated,
  hsToken,
  keyPair,
  validClaims,
} from './helpers.js';

let rsa: KeyPair & { pem: string };
let otherRsa: KeyPair & { pem: string };
let ec: KeyPair & { pem: string };
let ed: KeyPair & { pem: string };

beforeAll(async () => {
  [rsa, otherRsa, ec, ed] = await Promise.all([
    keyPair('RS256'),
    keyPair('RS256'),
    keyPair('ES256'),
    keyPair('EdDSA'),
  ]);
});

describe('public key verifiers', () => {
  it('verifies RS256 with an RSA public key', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: rsa.pem, algorithm: 'RS256' });
    const viewer = await verifier.verify(
      await asymmetricToken(validClaims({ role: 'admin' }), rsa.privateKey, 'RS256'),
    );
    expect(viewer).toMatchObject({ tenantId: 't1', subject: 'user-1', isAdmin: true });
  });

  it('verifies ES256 with a P-256 public key', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: ec.pem, algorithm: 'ES256' });
    const viewer = await verifier.verify(await asymmetricToken(validClaims(), ec.privateKey, 'ES256'));
    expect(viewer.tenantId).toBe('t1');
  });

  it('verifies EdDSA with an Ed25519 public key', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: ed.pem, algorithm: 'EdDSA' });
    const viewer = await verifier.verify(await asymmetricToken(validClaims(), ed.privateKey, 'EdDSA'));
    expect(viewer.tenantId).toBe('t1');
  });

  it('accepts a PEM whose newlines were written as \\n (as in an env var)', async () => {
    const oneLine = rsa.pem.trim().replace(/\n/g, '\\n');
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: oneLine, algorithm: 'RS256' });
    await expect(
      verifier.verify(await asymmetricToken(validClaims(), rsa.privateKey, 'RS256')),
    ).resolves.toBeDefined();
  });

  it('refuses a token signed by another key pair', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: rsa.pem, algorithm: 'RS256' });
    const error = await expectUnauthenticated(
      verifier.verify(await asymmetricToken(validClaims(), otherRsa.privateKey, 'RS256')),
    );
    expect(error.message).toBe('Token signature is invalid');
  });

  it('refuses an algorithm that is not pinned (PS256 with the same RSA key)', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: rsa.pem, algorithm: 'RS256' });
    // The same RSA key as a Node KeyObject, so that jose may use it for PS256 as well.
    const { exportPKCS8 } = await import('jose');
    const rsaKeyObject = createPrivateKey(await exportPKCS8(rsa.privateKey));
    const ps256 = await new SignJWT(validClaims()).setProtectedHeader({ alg: 'PS256' }).sign(rsaKeyObject);
    const error = await expectUnauthenticated(verifier.verify(ps256));
    expect(error.message).toBe('Token algorithm not allowed');
    const both = createTokenVerifier({
      kind: 'publicKey',
      pem: rsa.pem,
      algorithm: 'RS256',
      algorithms: ['RS256', 'PS256'],
    });
    await expect(both.verify(ps256)).resolves.toMatchObject({ tenantId: 't1' });
  });

  it('refuses expired and tenant-less tokens with an asymmetric key too', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: ec.pem, algorithm: 'ES256' });
    await expectUnauthenticated(
      verifier.verify(await asymmetricToken(validClaims({ exp: 1 }), ec.privateKey, 'ES256')),
    );
    await expectUnauthenticated(
      verifier.verify(await asymmetricToken({ exp: validClaims().exp }, ec.privateKey, 'ES256')),
    );
  });

  it('ignores header key injection (jwk, jku, x5u) and verifies against the configured key only', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: rsa.pem, algorithm: 'RS256' });
    const { exportJWK } = await import('jose');
    const attackerJwk = await exportJWK(otherRsa.publicKey);
    const token = await new SignJWT(validClaims({ role: 'admin' }))
      .setProtectedHeader({
        alg: 'RS256',
        jwk: attackerJwk,
        jku: 'https://evil.example/jwks',
        x5u: 'https://evil.example/c',
      })
      .sign(otherRsa.privateKey);
    const error = await expectUnauthenticated(verifier.verify(token));
    expect(error.message).toBe('Token signature is invalid');
  });
});

describe('HS/RS algorithm confusion', () => {
  it('an RS256 verifier refuses an HS256 token signed with the RSA public key PEM as the HMAC secret', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: rsa.pem, algorithm: 'RS256' });
    const forged = await hsToken(validClaims({ role: 'admin' }), new TextEncoder().encode(rsa.pem));
    const error = await expectUnauthenticated(verifier.verify(forged));
    expect(error.message).toBe('Token algorithm not allowed');
  });

  it('the same forgery fails even if the PEM is given without a trailing newline', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: rsa.pem, algorithm: 'RS256' });
    const forged = await hsToken(validClaims(), new TextEncoder().encode(rsa.pem.trim()));
    await expectUnauthenticated(verifier.verify(forged));
  });

  it('an HS256 verifier refuses an RS256 token', async () => {
    const verifier = createTokenVerifier({ kind: 'secret', secret: SECRET });
    const error = await expectUnauthenticated(
      verifier.verify(await asymmetricToken(validClaims(), rsa.privateKey, 'RS256')),
    );
    expect(error.message).toBe('Token algorithm not allowed');
  });

  it('an RS256 verifier refuses alg none', async () => {
    const verifier = createTokenVerifier({ kind: 'publicKey', pem: rsa.pem, algorithm: 'RS256' });
    await expectUnauthenticated(verifier.verify(craftToken({ alg: 'none' }, validClaims())));
    await expectUnauthenticated(verifier.verify(craftToken({ alg: 'none' }, validClaims(), 'AAAA')));
  });

  it.each([
    [
      'HS256 pinned with a public key',
      () => ({ kind: 'publicKey', pem: rsa.pem, algorithm: 'RS256', algorithms: ['RS256', 'HS256'] }),
    ],
    ['HS256 as the public key algorithm', () => ({ kind: 'publicKey', pem: rsa.pem, algorithm: 'HS256' })],
    [
      'RS256 pinned with a secret',
      () => ({ kind: 'secret', secret: SECRET, algorithms: ['HS256', 'RS256'] }),
    ],
    ['none pinned with a secret', () => ({ kind: 'secret', secret: SECRET, algorithms: ['none'] })],
    [
      'none pinned with a public key',
      () => ({ kind: 'publicKey', pem: rsa.pem, algorithm: 'RS256', algorithms: ['none'] }),
    ],
    [
      'HS256 pinned with JWKS',
      () => ({ kind: 'jwks', url: 'https://idp.example/jwks', algorithms: ['HS256'] }),
    ],
    ['an empty algorithm list', () => ({ kind: 'secret', secret: SECRET, algorithms: [] })],
  ])('refuses to build a verifier with %s', (_name, options) => {
    expect(() => createTokenVerifier(options() as AuthOptions)).toThrow(AuthOptionsError);
  });
});

describe('public key configuration errors (thrown at construction)', () => {
  it.each([
    [
      'ES256 with an RSA key',
      () => ({ pem: rsa.pem, algorithm: 'ES256' }),
      /rsa public key cannot verify ES256/,
    ],
    [
      'RS256 with an EC key',
      () => ({ pem: ec.pem, algorithm: 'RS256' }),
      /ec public key cannot verify RS256/,
    ],
    ['ES384 with a P-256 key', () => ({ pem: ec.pem, algorithm: 'ES384' }), /cannot verify ES384/],
    ['EdDSA with an RSA key', () => ({ pem: rsa.pem, algorithm: 'EdDSA' }), /cannot verify EdDSA/],
    ['garbage PEM', () => ({ pem: 'not a key', algorithm: 'RS256' }), /not a PEM public key/],
    [
      'a private key',
      () => ({
        pem: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
          type: 'pkcs8',
          format: 'pem',
        }),
        algorithm: 'ES256',
      }),
      /private key/,
    ],
    [
      'a 1024-bit RSA key',
      () => ({
        pem: generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
          type: 'spki',
          format: 'pem',
        }),
        algorithm: 'RS256',
      }),
      /at least 2048 bits/,
    ],
  ])('%s', (_name, options, message) => {
    expect(() => createTokenVerifier({ kind: 'publicKey', ...options() } as AuthOptions)).toThrow(message);
  });

  it('does not echo the PEM in configuration errors', () => {
    try {
      createTokenVerifier({ kind: 'publicKey', pem: rsa.pem, algorithm: 'ES256' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('BEGIN');
    }
  });
});
