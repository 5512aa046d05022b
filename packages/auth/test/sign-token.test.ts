import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenVerifier, requireAdmin, signToken, trustedTenantId } from '../src/index.js';
import { SECRET, expectUnauthenticated, nowSeconds } from './helpers.js';

const verifier = createTokenVerifier({ kind: 'secret', secret: SECRET });

describe('signToken', () => {
  it('signs an HS256 token the verifier accepts, expiring in 12 hours by default', async () => {
    const token = await signToken({ secret: SECRET, tenantId: 't_0123456789', subject: 'waiter-7' });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(12 * 3600);
    expect(Math.abs(claims.iat! - nowSeconds())).toBeLessThanOrEqual(1);
    const viewer = await verifier.verify(token);
    expect(viewer).toEqual({
      tenantId: 't_0123456789',
      subject: 'waiter-7',
      roles: [],
      isAdmin: false,
      token,
    });
  });

  it('makes administrators with admin: true, and merges roles', async () => {
    const token = await signToken({
      secret: SECRET,
      tenantId: 't1',
      admin: true,
      roles: ['waiter', 'admin'],
    });
    expect(decodeJwt(token).roles).toEqual(['admin', 'waiter']);
    await expect(verifier.verify(token)).resolves.toMatchObject({
      isAdmin: true,
      roles: ['admin', 'waiter'],
    });
  });

  it('takes expiresIn as a jose time span or as seconds from now (negative = expired)', async () => {
    // jose reads the clock for a span itself: a second may tick between its reading and iat's (seen in CI).
    const span = decodeJwt(await signToken({ secret: SECRET, tenantId: 't1', expiresIn: '30m' }));
    expect(span.exp! - span.iat!).toBeGreaterThanOrEqual(1800);
    expect(span.exp! - span.iat!).toBeLessThanOrEqual(1801);
    const seconds = decodeJwt(await signToken({ secret: SECRET, tenantId: 't1', expiresIn: 90 }));
    expect(seconds.exp! - seconds.iat!).toBe(90);
    const expired = await signToken({ secret: SECRET, tenantId: 't1', expiresIn: -60 });
    expect((await expectUnauthenticated(verifier.verify(expired))).message).toBe('Token expired');
  });

  it('sets iss and aud, and passes extra claims without letting them replace tenantId or exp', async () => {
    const token = await signToken({
      secret: SECRET,
      tenantId: 't1',
      issuer: 'coperto-dev',
      audience: 'coperto',
      extraClaims: { tenantId: 'evil', exp: 1, deviceId: 'tablet-3' },
    });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      tenantId: 't1',
      iss: 'coperto-dev',
      aud: 'coperto',
      deviceId: 'tablet-3',
    });
    expect(claims.exp).toBeGreaterThan(nowSeconds());
    const strict = createTokenVerifier({
      kind: 'secret',
      secret: SECRET,
      issuer: 'coperto-dev',
      audience: 'coperto',
    });
    await expect(strict.verify(token)).resolves.toMatchObject({ tenantId: 't1' });
  });

  it.each([
    ['an empty tenantId', { tenantId: '' }, /tenantId/],
    ['a tenantId with a dot', { tenantId: 'a.b' }, /tenantId/],
    ['a short secret', { secret: 'too-short' }, /at least 32 bytes/],
  ])('refuses %s', async (_name, override, message) => {
    await expect(signToken({ secret: SECRET, tenantId: 't1', ...override })).rejects.toThrow(message);
  });
});

describe('requireAdmin', () => {
  const viewer = (isAdmin: boolean) => ({
    tenantId: trustedTenantId('t1'),
    subject: null,
    roles: isAdmin ? ['admin'] : [],
    isAdmin,
    token: 'x',
  });

  it('lets an administrator through', () => {
    expect(() => requireAdmin(viewer(true), 'change this')).not.toThrow();
  });

  it('throws FORBIDDEN (403) for anyone else', () => {
    expect(() => requireAdmin(viewer(false), 'change this')).toThrow(
      expect.objectContaining({
        code: 'FORBIDDEN',
        status: 403,
        name: 'ForbiddenError',
        message: 'Only an administrator can change this',
      }),
    );
  });
});
