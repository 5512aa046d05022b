import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { JWK } from 'jose';
import { exportJWK } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '../src/index.js';
import type { KeyPair } from './helpers.js';
import { asymmetricToken, expectUnauthenticated, hsToken, keyPair, validClaims } from './helpers.js';

/** A JWKS endpoint on a loopback port chosen by the OS, whose answers each test controls. */
async function startJwksServer() {
  const state = { keys: [] as JWK[], mode: 'ok' as 'ok' | 'error' | 'hang', requests: 0 };
  const server = createServer((req, res) => {
    state.requests++;
    if (state.mode === 'hang') return;
    if (state.mode === 'error') {
      res.writeHead(500).end('boom');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: state.keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function publicJwk(pair: KeyPair, kid: string, alg: string): Promise<JWK> {
  return { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' };
}

let jwks: Awaited<ReturnType<typeof startJwksServer>>;
let rsa: KeyPair;
let ec: KeyPair;
let stranger: KeyPair;
let rsaJwk: JWK;
let ecJwk: JWK;

beforeAll(async () => {
  jwks = await startJwksServer();
  [rsa, ec, stranger] = await Promise.all([keyPair('RS256'), keyPair('ES256'), keyPair('RS256')]);
  [rsaJwk, ecJwk] = await Promise.all([publicJwk(rsa, 'rsa-1', 'RS256'), publicJwk(ec, 'ec-1', 'ES256')]);
});

afterAll(async () => {
  await jwks.close();
});

beforeEach(() => {
  jwks.state.keys = [rsaJwk, ecJwk];
  jwks.state.mode = 'ok';
  jwks.state.requests = 0;
});

describe('JWKS verifier', () => {
  it('verifies an RS256 token through the JWKS', async () => {
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url });
    const token = await asymmetricToken(validClaims({ roles: ['admin'] }), rsa.privateKey, 'RS256', 'rsa-1');
    await expect(verifier.verify(token)).resolves.toMatchObject({ tenantId: 't1', isAdmin: true, token });
  });

  it('verifies an ES256 token through the JWKS', async () => {
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url });
    const token = await asymmetricToken(validClaims(), ec.privateKey, 'ES256', 'ec-1');
    await expect(verifier.verifyAuthorizationHeader(`Bearer ${token}`)).resolves.toMatchObject({
      tenantId: 't1',
    });
  });

  it('refuses a token whose kid is unknown', async () => {
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url });
    const token = await asymmetricToken(validClaims(), rsa.privateKey, 'RS256', 'rsa-unknown');
    const error = await expectUnauthenticated(verifier.verify(token));
    expect(error.message).toBe('No signing key matches the token');
  });

  it('a flood of random kids does not refetch the JWKS during the cooldown', async () => {
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url });
    await verifier.verify(await asymmetricToken(validClaims(), rsa.privateKey, 'RS256', 'rsa-1'));
    expect(jwks.state.requests).toBe(1);
    const kids = ['../../dev/null', "' OR 1=1 --", ...Array.from({ length: 30 }, (_, i) => `random-${i}`)];
    for (const kid of kids) {
      await expectUnauthenticated(
        verifier.verify(await asymmetricToken(validClaims(), rsa.privateKey, 'RS256', kid)),
      );
    }
    expect(jwks.state.requests).toBe(1);
  });

  it('refuses a token signed by another key that claims a known kid', async () => {
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url });
    const token = await asymmetricToken(validClaims(), stranger.privateKey, 'RS256', 'rsa-1');
    const error = await expectUnauthenticated(verifier.verify(token));
    expect(error.message).toBe('Token signature is invalid');
  });

  it('refuses an HS256 token naming a JWKS kid (HMAC with the public key)', async () => {
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url });
    const forged = await hsToken(
      validClaims({ role: 'admin' }),
      new TextEncoder().encode(JSON.stringify(rsaJwk)),
    );
    const error = await expectUnauthenticated(verifier.verify(forged));
    expect(error.message).toBe('Token algorithm not allowed');
  });

  it('refuses ES256 when the verifier is pinned to RS256', async () => {
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url, algorithms: ['RS256'] });
    const token = await asymmetricToken(validClaims(), ec.privateKey, 'ES256', 'ec-1');
    const error = await expectUnauthenticated(verifier.verify(token));
    expect(error.message).toBe('Token algorithm not allowed');
  });

  it('refuses (401, not a crash) when the JWKS endpoint answers 500', async () => {
    jwks.state.mode = 'error';
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url });
    const error = await expectUnauthenticated(
      verifier.verify(await asymmetricToken(validClaims(), rsa.privateKey, 'RS256', 'rsa-1')),
    );
    expect(error.message).toBe('Signing keys unavailable');
  });

  it('fails closed within timeoutMs when the JWKS endpoint hangs', async () => {
    jwks.state.mode = 'hang';
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url, timeoutMs: 200 });
    const started = Date.now();
    const error = await expectUnauthenticated(
      verifier.verify(await asymmetricToken(validClaims(), rsa.privateKey, 'RS256', 'rsa-1')),
    );
    expect(error.message).toBe('Signing keys unavailable');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('keeps verifying known kids from its cache while the endpoint is down', async () => {
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url });
    const token = await asymmetricToken(validClaims(), rsa.privateKey, 'RS256', 'rsa-1');
    await verifier.verify(token);
    jwks.state.mode = 'error';
    await expect(verifier.verify(token)).resolves.toMatchObject({ tenantId: 't1' });
  });

  it('accepts a newly published key after the cooldown, without a restart', async () => {
    const verifier = createTokenVerifier({ kind: 'jwks', url: jwks.url, cooldownMs: 100 });
    await verifier.verify(await asymmetricToken(validClaims(), rsa.privateKey, 'RS256', 'rsa-1'));
    jwks.state.keys = [rsaJwk, await publicJwk(stranger, 'rsa-2', 'RS256')];
    await new Promise((resolve) => setTimeout(resolve, 150));
    const rotated = await asymmetricToken(validClaims(), stranger.privateKey, 'RS256', 'rsa-2');
    await expect(verifier.verify(rotated)).resolves.toMatchObject({ tenantId: 't1' });
    expect(jwks.state.requests).toBe(2);
  });

  it('refuses to build a verifier for a non-HTTP JWKS url', () => {
    expect(() => createTokenVerifier({ kind: 'jwks', url: 'file:///etc/jwks.json' })).toThrow(/https/);
    expect(() => createTokenVerifier({ kind: 'jwks', url: 'not a url' })).toThrow(/not a valid URL/);
  });
});
