import { describe, expect, it } from 'vitest';
import { createTokenVerifier } from '../src/index.js';
import {
  OTHER_SECRET,
  SECRET,
  craftToken,
  expectUnauthenticated,
  hsToken,
  nowSeconds,
  validClaims,
} from './helpers.js';

const verifier = createTokenVerifier({ kind: 'secret', secret: SECRET });

describe('createTokenVerifier (HS256 secret)', () => {
  it('turns a valid token into a Viewer', async () => {
    const token = await hsToken(validClaims());
    const viewer = await verifier.verify(token);
    expect(viewer).toEqual({ tenantId: 't1', subject: 'user-1', roles: [], isAdmin: false, token });
    expect(Object.isFrozen(viewer)).toBe(true);
  });

  it('gives a null subject when there is no sub', async () => {
    const viewer = await verifier.verify(await hsToken({ tenantId: 'tenant_A-9', exp: nowSeconds() + 60 }));
    expect(viewer.subject).toBeNull();
    expect(viewer.tenantId).toBe('tenant_A-9');
  });

  it.each([
    ['role: "admin"', { role: 'admin' }, ['admin']],
    ['roles containing "admin"', { roles: ['waiter', 'admin'] }, ['waiter', 'admin']],
    ['both, deduplicated', { role: 'admin', roles: ['admin', 'waiter'] }, ['admin', 'waiter']],
  ])('is admin with %s', async (_name, extra, roles) => {
    const viewer = await verifier.verify(await hsToken(validClaims(extra)));
    expect(viewer.isAdmin).toBe(true);
    expect(viewer.roles).toEqual(roles);
  });

  it.each([
    ['role: "waiter"', { role: 'waiter' }],
    ['roles without admin', { roles: ['waiter', 'Admin'] }],
    ['isAdmin claim (not a Coperto claim)', { isAdmin: true }],
  ])('is not admin with %s', async (_name, extra) => {
    const viewer = await verifier.verify(await hsToken(validClaims(extra)));
    expect(viewer.isAdmin).toBe(false);
  });

  it('accepts a token expired less than the clock tolerance ago, refuses one expired longer ago', async () => {
    await expect(
      verifier.verify(await hsToken(validClaims({ exp: nowSeconds() - 2 }))),
    ).resolves.toBeDefined();
    const error = await expectUnauthenticated(
      verifier.verify(await hsToken(validClaims({ exp: nowSeconds() - 10 }))),
    );
    expect(error.message).toBe('Token expired');
  });

  it('honours a custom clock tolerance', async () => {
    const strict = createTokenVerifier({ kind: 'secret', secret: SECRET, clockToleranceSeconds: 0 });
    await expectUnauthenticated(strict.verify(await hsToken(validClaims({ exp: nowSeconds() - 2 }))));
    const lenient = createTokenVerifier({ kind: 'secret', secret: SECRET, clockToleranceSeconds: 60 });
    await expect(
      lenient.verify(await hsToken(validClaims({ exp: nowSeconds() - 30 }))),
    ).resolves.toBeDefined();
  });

  it('accepts HS384 and HS512 only when pinned', async () => {
    const long = 'x'.repeat(64);
    const hs512 = await hsToken(validClaims(), long, 'HS512');
    await expectUnauthenticated(createTokenVerifier({ kind: 'secret', secret: long }).verify(hs512));
    const pinned = createTokenVerifier({ kind: 'secret', secret: long, algorithms: ['HS384', 'HS512'] });
    await expect(pinned.verify(hs512)).resolves.toMatchObject({ tenantId: 't1' });
  });
});

describe('refusals: every one is UNAUTHENTICATED', () => {
  const refusals: [name: string, token: () => Promise<string> | string, message: string][] = [
    ['wrong key', () => hsToken(validClaims(), OTHER_SECRET), 'Token signature is invalid'],
    ['expired', () => hsToken(validClaims({ exp: nowSeconds() - 3600 })), 'Token expired'],
    ['no exp', () => hsToken({ tenantId: 't1', sub: 'u' }), 'Token has no exp claim'],
    [
      'exp not a number',
      () => hsToken(validClaims({ exp: 'tomorrow' as unknown as number })),
      'Token exp claim check failed',
    ],
    [
      'nbf in the future',
      () => hsToken(validClaims({ nbf: nowSeconds() + 600 })),
      'Token nbf claim check failed',
    ],
    ['missing tenantId', () => hsToken({ sub: 'u', exp: nowSeconds() + 60 }), 'Token has no tenantId claim'],
    ['empty tenantId', () => hsToken(validClaims({ tenantId: '' })), 'Token tenantId claim is invalid'],
    ['numeric tenantId', () => hsToken(validClaims({ tenantId: 42 })), 'Token tenantId claim is invalid'],
    ['null tenantId', () => hsToken(validClaims({ tenantId: null })), 'Token tenantId claim is invalid'],
    ['array tenantId', () => hsToken(validClaims({ tenantId: ['t1'] })), 'Token tenantId claim is invalid'],
    [
      'object tenantId',
      () => hsToken(validClaims({ tenantId: { $ne: null } })),
      'Token tenantId claim is invalid',
    ],
    [
      'tenantId with "."',
      () => hsToken(validClaims({ tenantId: 't1.restaurant' })),
      'Token tenantId claim is invalid',
    ],
    ['tenantId "*"', () => hsToken(validClaims({ tenantId: '*' })), 'Token tenantId claim is invalid'],
    ['tenantId ">"', () => hsToken(validClaims({ tenantId: '>' })), 'Token tenantId claim is invalid'],
    [
      'tenantId with a space',
      () => hsToken(validClaims({ tenantId: 't 1' })),
      'Token tenantId claim is invalid',
    ],
    [
      'tenantId of 65 chars',
      () => hsToken(validClaims({ tenantId: 'a'.repeat(65) })),
      'Token tenantId claim is invalid',
    ],
    [
      'non-string sub',
      () => hsToken(validClaims({ sub: 7 as unknown as string })),
      'Token sub claim is invalid',
    ],
    ['non-string role', () => hsToken(validClaims({ role: ['admin'] })), 'Token role claim is invalid'],
    ['roles not an array', () => hsToken(validClaims({ roles: 'admin' })), 'Token roles claim is invalid'],
    [
      'roles with a non-string',
      () => hsToken(validClaims({ roles: ['admin', 1] })),
      'Token roles claim is invalid',
    ],
    [
      'alg none, unsigned (crafted by hand)',
      () => craftToken({ alg: 'none', typ: 'JWT' }, validClaims()),
      'Malformed token',
    ],
    [
      'alg none with a signature segment',
      () => craftToken({ alg: 'none', typ: 'JWT' }, validClaims(), 'AAAA'),
      'Token algorithm not allowed',
    ],
    ['alg "None"', () => craftToken({ alg: 'None' }, validClaims(), 'AAAA'), 'Token algorithm not allowed'],
    ['no alg', () => craftToken({ typ: 'JWT' }, validClaims(), 'AAAA'), 'Malformed token'],
    [
      'payload tampered (admin added without re-signing)',
      async () => {
        const [header, , signature] = (await hsToken(validClaims())).split('.');
        const forged = craftToken({}, validClaims({ role: 'admin' })).split('.')[1];
        return `${header}.${forged}.${signature}`;
      },
      'Token signature is invalid',
    ],
    [
      'unknown critical header',
      () => craftToken({ alg: 'HS256', crit: ['x-unknown'], 'x-unknown': 1 }, validClaims(), 'AAAA'),
      'Token uses an unsupported feature',
    ],
    ['claims not an object', () => hsTokenOfRaw('"just a string"'), 'Malformed token'],
    ['garbage: one word', () => 'garbage', 'Malformed token'],
    ['garbage: dots only', () => '..', 'Malformed token'],
    ['garbage: three words', () => 'a.b.c', 'Malformed token'],
    ['garbage: four segments', () => 'a.b.c.d', 'Malformed token'],
    ['garbage: non-base64url characters', () => 'ab$.cd!.ef', 'Malformed token'],
    [
      'garbage: header not JSON',
      () => `${Buffer.from('{nope').toString('base64url')}.e30.AAAA`,
      'Malformed token',
    ],
    ['empty token', () => '', 'Missing bearer token'],
    [
      'oversized token (over 8 KiB)',
      () => hsToken(validClaims({ padding: 'x'.repeat(9000) })),
      'Token too large',
    ],
  ];

  it.each(refusals)('%s', async (_name, makeToken, message) => {
    const error = await expectUnauthenticated(verifier.verify(await makeToken()));
    expect(error.message).toBe(message);
  });

  it('refuses an oversized token before any crypto (a 1 MB string)', async () => {
    const error = await expectUnauthenticated(verifier.verify(`${'a'.repeat(1_000_000)}.b.c`));
    expect(error.message).toBe('Token too large');
  });

  it('honours a custom maxTokenLength', async () => {
    const small = createTokenVerifier({ kind: 'secret', secret: SECRET, maxTokenLength: 100 });
    const error = await expectUnauthenticated(
      small.verify(await hsToken(validClaims({ note: 'x'.repeat(100) }))),
    );
    expect(error.message).toBe('Token too large');
  });

  it('never puts the secret or the token into the error message', async () => {
    const token = await hsToken(validClaims(), OTHER_SECRET);
    const error = await expectUnauthenticated(verifier.verify(token));
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain(OTHER_SECRET);
    expect(error.message).not.toContain(token);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });
});

describe('issuer and audience', () => {
  const strict = createTokenVerifier({
    kind: 'secret',
    secret: SECRET,
    issuer: 'https://idp.example',
    audience: ['coperto', 'coperto-admin'],
  });
  const good = { iss: 'https://idp.example', aud: 'coperto' };

  it('accepts matching iss and aud (aud as a string or an array)', async () => {
    await expect(strict.verify(await hsToken(validClaims(good)))).resolves.toMatchObject({ tenantId: 't1' });
    const arrayAud = validClaims({ ...good, aud: ['other', 'coperto-admin'] });
    await expect(strict.verify(await hsToken(arrayAud))).resolves.toMatchObject({ tenantId: 't1' });
  });

  it.each([
    ['wrong issuer', { ...good, iss: 'https://evil.example' }, 'Token iss claim check failed'],
    ['missing issuer', { aud: 'coperto' }, 'Token has no iss claim'],
    ['wrong audience', { ...good, aud: 'billing' }, 'Token aud claim check failed'],
    ['missing audience', { iss: 'https://idp.example' }, 'Token has no aud claim'],
  ])('refuses %s', async (_name, extra, message) => {
    const error = await expectUnauthenticated(strict.verify(await hsToken(validClaims(extra))));
    expect(error.message).toBe(message);
  });

  it('ignores iss and aud when not configured', async () => {
    const viewer = await verifier.verify(await hsToken(validClaims({ iss: 'anyone', aud: 'anything' })));
    expect(viewer.tenantId).toBe('t1');
  });
});

describe('verifyAuthorizationHeader', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts the %s scheme', async (scheme) => {
    const token = await hsToken(validClaims());
    await expect(verifier.verifyAuthorizationHeader(`${scheme} ${token}`)).resolves.toMatchObject({ token });
  });

  it('tolerates several spaces and surrounding whitespace', async () => {
    const token = await hsToken(validClaims());
    await expect(verifier.verifyAuthorizationHeader(`  Bearer   ${token}  `)).resolves.toMatchObject({
      token,
    });
  });

  it.each([
    ['undefined', undefined, 'Missing bearer token'],
    ['empty', '', 'Missing bearer token'],
    ['blank', '   ', 'Missing bearer token'],
    ['scheme only', 'Bearer', 'Authorization header must be "Bearer <token>"'],
    ['scheme and space', 'Bearer ', 'Authorization header must be "Bearer <token>"'],
    [
      'token without scheme',
      'eyJhbGciOiJIUzI1NiJ9.e30.AAAA',
      'Authorization header must be "Bearer <token>"',
    ],
    ['Basic scheme', 'Basic dXNlcjpwYXNz', 'Authorization header must be "Bearer <token>"'],
    ['two tokens', 'Bearer a.b.c d.e.f', 'Authorization header must be "Bearer <token>"'],
    ['no space', 'Bearera.b.c', 'Authorization header must be "Bearer <token>"'],
    ['garbage token', 'Bearer not-a-jwt', 'Malformed token'],
    ['oversized header', `Bearer ${'a'.repeat(20_000)}`, 'Token too large'],
  ])('refuses %s', async (_name, header, message) => {
    const error = await expectUnauthenticated(verifier.verifyAuthorizationHeader(header));
    expect(error.message).toBe(message);
  });

  it('refuses a wrongly signed token in a well-formed header', async () => {
    const token = await hsToken(validClaims(), OTHER_SECRET);
    await expectUnauthenticated(verifier.verifyAuthorizationHeader(`Bearer ${token}`));
  });
});

/** A correctly signed HS256 token whose payload segment is arbitrary text. */
async function hsTokenOfRaw(payload: string): Promise<string> {
  const { createHmac } = await import('node:crypto');
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(payload).toString('base64url');
  const signature = createHmac('sha256', SECRET).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}
