import { describe, expect, it } from 'vitest';
import {
  AuthOptionsError,
  authOptionsFromSettings,
  createTokenVerifier,
  isValidTenantId,
  type AuthOptions,
} from '../src/index.js';
import { SECRET } from './helpers.js';

describe('createTokenVerifier options', () => {
  it.each([
    ['an empty secret', { kind: 'secret', secret: '' }, /non-empty/],
    [
      'a secret shorter than 32 bytes',
      { kind: 'secret', secret: 'x'.repeat(31) },
      /at least 32 bytes for HS256/,
    ],
    [
      'HS512 with a 32-byte secret',
      { kind: 'secret', secret: 'x'.repeat(32), algorithms: ['HS512'] },
      /64 bytes/,
    ],
    ['an unknown kind', { kind: 'password', secret: SECRET }, /Unknown key source kind/],
    [
      'an unknown algorithm',
      { kind: 'secret', secret: SECRET, algorithms: ['HS1024'] },
      /HS1024 cannot be used/,
    ],
    [
      'a negative clock tolerance',
      { kind: 'secret', secret: SECRET, clockToleranceSeconds: -1 },
      /clockTolerance/,
    ],
    ['a zero maxTokenLength', { kind: 'secret', secret: SECRET, maxTokenLength: 0 }, /maxTokenLength/],
    ['an empty issuer', { kind: 'secret', secret: SECRET, issuer: '' }, /issuer/],
    ['an empty audience list', { kind: 'secret', secret: SECRET, audience: [] }, /audience/],
  ])('refuses %s', (_name, options, message) => {
    expect(() => createTokenVerifier(options as AuthOptions)).toThrow(AuthOptionsError);
    expect(() => createTokenVerifier(options as AuthOptions)).toThrow(message);
  });

  it('never echoes the secret in an options error', () => {
    const short = 'short-secret-value';
    expect(() => createTokenVerifier({ kind: 'secret', secret: short })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(short) }),
    );
  });
});

describe('authOptionsFromSettings', () => {
  const pem = '-----BEGIN PUBLIC KEY-----\nMFkw...\n-----END PUBLIC KEY-----';

  it.each([
    ['a secret', { secret: SECRET }, { kind: 'secret', secret: SECRET }],
    [
      'a secret with algorithms and policy',
      { secret: SECRET, algorithms: ['HS256'], issuer: 'idp', audience: undefined },
      { kind: 'secret', secret: SECRET, algorithms: ['HS256'], issuer: 'idp' },
    ],
    [
      'a public key',
      { publicKeyPem: pem, algorithms: ['ES256'] },
      { kind: 'publicKey', pem, algorithm: 'ES256', algorithms: ['ES256'] },
    ],
    ['a JWKS url', { jwksUrl: 'https://idp/jwks' }, { kind: 'jwks', url: 'https://idp/jwks' }],
    [
      'a JWKS url with algorithms',
      { jwksUrl: 'https://idp/jwks', algorithms: ['RS256'], clockToleranceSeconds: 10 },
      { kind: 'jwks', url: 'https://idp/jwks', algorithms: ['RS256'], clockToleranceSeconds: 10 },
    ],
  ])('picks %s', (_name, settings, expected) => {
    expect(authOptionsFromSettings(settings)).toEqual(expected);
  });

  it('falls back to the given secret only when no key source is set', () => {
    const FALLBACK = 'x'.repeat(43);
    expect(authOptionsFromSettings({}, { fallbackSecret: FALLBACK })).toEqual({
      kind: 'secret',
      secret: FALLBACK,
    });
    expect(authOptionsFromSettings({ secret: SECRET }, { fallbackSecret: FALLBACK })).toEqual({
      kind: 'secret',
      secret: SECRET,
    });
  });

  it.each([
    ['nothing set and no fallback', {}, /Set one of JWT_SECRET, JWT_PUBLIC_KEY, JWT_JWKS_URL/],
    [
      'two key sources',
      { secret: SECRET, jwksUrl: 'https://idp/jwks' },
      /Set only one of JWT_SECRET, JWT_JWKS_URL/,
    ],
    [
      'a public key without algorithms',
      { publicKeyPem: pem },
      /JWT_ALGORITHMS is required with JWT_PUBLIC_KEY/,
    ],
    [
      'HS256 with a public key',
      { publicKeyPem: pem, algorithms: ['HS256'] },
      /HS256 cannot be used with a public key/,
    ],
    [
      'RS256 with a secret',
      { secret: SECRET, algorithms: ['RS256'] },
      /RS256 cannot be used with JWT_SECRET/,
    ],
    ['none with a JWKS url', { jwksUrl: 'https://idp/jwks', algorithms: ['none'] }, /none cannot be used/],
  ])('refuses %s', (_name, settings, message) => {
    expect(() => authOptionsFromSettings(settings)).toThrow(message);
  });
});

describe('isValidTenantId', () => {
  it.each(['t1', 'T_0123456789', 'a-b_c', 'x'.repeat(64)])('accepts %j', (value) => {
    expect(isValidTenantId(value)).toBe(true);
  });

  it.each(['', 'a.b', '*', '>', 'a b', 'a/b', 'é', 'x'.repeat(65), 42, null, undefined, ['t1']])(
    'refuses %j',
    (value) => {
      expect(isValidTenantId(value)).toBe(false);
    },
  );
});
