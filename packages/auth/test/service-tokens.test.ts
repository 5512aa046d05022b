import { describe, expect, it } from 'vitest';
import type { TenantId } from '../src/index.js';
import {
  SERVICE_TOKEN_ISSUER,
  cachedChannelDirectory,
  combineTokenVerifiers,
  forbiddenRootFields,
  createServiceTokenIssuer,
  createServiceTokenVerifier,
  createTokenVerifier,
} from '../src/index.js';
import { OTHER_SECRET, SECRET, expectUnauthenticated, hsToken, nowSeconds, validClaims } from './helpers.js';

/** SECRET is the staff key here, OTHER_SECRET the service key. */
const issuer = createServiceTokenIssuer({ secret: OTHER_SECRET });
const deleted = new Set<string>();
const channels = { isActive: async (_tenant: TenantId, id: string) => !deleted.has(id) };
const service = createServiceTokenVerifier({ secret: OTHER_SECRET, channels });
const staff = createTokenVerifier({ kind: 'secret', secret: SECRET });
const verifier = combineTokenVerifiers({ staff, service }, { maxTokenLength: 8192 });
const inAnHour = () => new Date(Date.now() + 3600_000);

describe('service tokens: issued and verified with the service key', () => {
  it('a channel key becomes a channel viewer with its grant, never an administrator', async () => {
    const { token, expiresAt } = await issuer.channelKey({
      tenantId: 't1',
      channelId: 'c1',
      channelName: 'Sito',
    });
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 24 * 3600_000);
    const viewer = await verifier.verifyAuthorizationHeader(`Bearer ${token}`);
    expect(viewer).toEqual({
      tenantId: 't1',
      subject: 'c1',
      roles: ['channel'],
      isAdmin: false,
      token,
      grant: { role: 'channel', channelId: 'c1', channelName: 'Sito', origine: 'online' },
    });
  });

  it("Reserve with Google's channel key says so (origine google); a google token is the booking server's", async () => {
    const google = await issuer.channelKey({
      tenantId: 't1',
      channelId: 'g1',
      channelName: 'Google',
      origine: 'google',
    });
    const viewer = await verifier.verify(google.token);
    expect(viewer.grant).toEqual({
      role: 'channel',
      channelId: 'g1',
      channelName: 'Google',
      origine: 'google',
    });
    const server = await issuer.googleToken({ tenantId: 't1' });
    expect(server.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 600_000);
    const serverViewer = await verifier.verify(server.token);
    expect(serverViewer).toMatchObject({ tenantId: 't1', roles: ['google'], isAdmin: false });
    expect(serverViewer.grant).toEqual({ role: 'google' });
  });

  it("a privacy token is ospiti's own, for one tenant, for 60 s, and selects no public field", async () => {
    const { token, expiresAt } = await issuer.privacyToken({ tenantId: 't1' });
    expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    const viewer = await verifier.verify(token);
    expect(viewer).toMatchObject({ tenantId: 't1', roles: ['privacy'], isAdmin: false });
    expect(viewer.grant).toEqual({ role: 'privacy' });
    expect(forbiddenRootFields(viewer, ['Mutation.cancellaDatiOspite', 'Query.ospiti'])).toHaveLength(2);
  });

  it('a channel key with an origine the service never issues is refused', async () => {
    const forged = await hsToken(
      validClaims({ iss: SERVICE_TOKEN_ISSUER, role: 'channel', name: 'x', sub: 'c1', origine: 'staff' }),
      OTHER_SECRET,
    );
    expect((await expectUnauthenticated(verifier.verify(forged))).message).toBe(
      'Token role claim is invalid',
    );
  });

  it('a guest token names its tenant and booking and expires at the booking end', async () => {
    const end = new Date(Date.now() + 90 * 60_000);
    const { token, expiresAt } = await issuer.guestToken({ tenantId: 't2', bookingId: 'b9', expiresAt: end });
    expect(expiresAt.getTime()).toBe(Math.ceil(end.getTime() / 1000) * 1000);
    const viewer = await verifier.verify(token);
    expect(viewer).toMatchObject({ tenantId: 't2', roles: ['guest'], isAdmin: false });
    expect(viewer.grant).toEqual({ role: 'guest', bookingId: 'b9' });
  });

  it('a guest token is refused once the booking has ended (clock tolerance aside)', async () => {
    let now = Date.now();
    const clock = { now: () => now };
    const strict = createServiceTokenVerifier(
      { secret: OTHER_SECRET, channels, clockToleranceSeconds: 0 },
      clock,
    );
    const { token, expiresAt } = await issuer.guestToken({
      tenantId: 't1',
      bookingId: 'b1',
      expiresAt: inAnHour(),
    });
    await expect(strict.verify(token)).resolves.toBeDefined();
    now = expiresAt.getTime() + 1;
    expect((await expectUnauthenticated(strict.verify(token))).message).toBe('Token expired');
  });

  it('no guest token for a booking already over, nor for a bad tenant or id', async () => {
    await expect(
      issuer.guestToken({ tenantId: 't1', bookingId: 'b1', expiresAt: new Date(Date.now() - 1000) }),
    ).rejects.toThrow(RangeError);
    await expect(
      issuer.guestToken({ tenantId: 'a.b', bookingId: 'b1', expiresAt: inAnHour() }),
    ).rejects.toThrow(TypeError);
    await expect(issuer.channelKey({ tenantId: 't1', channelId: '', channelName: 'x' })).rejects.toThrow(
      TypeError,
    );
    expect(() => createServiceTokenIssuer({ secret: 'short' })).toThrow(TypeError);
  });

  it("a deleted channel's key is refused with 401; a process without a directory refuses every channel key", async () => {
    const { token } = await issuer.channelKey({ tenantId: 't1', channelId: 'gone', channelName: 'Old' });
    await expect(verifier.verify(token)).resolves.toBeDefined();
    deleted.add('gone');
    expect((await expectUnauthenticated(verifier.verify(token))).message).toBe('Channel key revoked');
    const blind = createServiceTokenVerifier({ secret: OTHER_SECRET });
    const live = await issuer.channelKey({ tenantId: 't1', channelId: 'c2', channelName: 'New' });
    await expectUnauthenticated(blind.verify(live.token));
    // A guest token needs no directory.
    const guest = await issuer.guestToken({ tenantId: 't1', bookingId: 'b1', expiresAt: inAnHour() });
    await expect(blind.verify(guest.token)).resolves.toMatchObject({ roles: ['guest'] });
  });
});

describe('service and staff tokens are told apart by their issuer', () => {
  it('a service token is not a staff token: the staff verifier alone refuses it', async () => {
    const { token } = await issuer.guestToken({ tenantId: 't1', bookingId: 'b1', expiresAt: inAnHour() });
    expect((await expectUnauthenticated(staff.verify(token))).message).toBe('Token signature is invalid');
  });

  it('a staff token naming the service issuer is refused (the service key never signed it)', async () => {
    const forged = await hsToken(validClaims({ iss: SERVICE_TOKEN_ISSUER, role: 'guest', sub: 'b1' }));
    expect((await expectUnauthenticated(verifier.verify(forged))).message).toBe('Token signature is invalid');
  });

  it.each([
    ['role: "guest"', { role: 'guest' }],
    ['role: "channel"', { role: 'channel' }],
    ['role: "google"', { role: 'google' }],
    ['roles containing "channel"', { roles: ['waiter', 'channel'] }],
  ])('a staff token claiming %s is refused: those roles come only from the service', async (_name, extra) => {
    const token = await hsToken(validClaims(extra));
    expect((await expectUnauthenticated(verifier.verify(token))).message).toBe(
      'Token role claim is reserved',
    );
  });

  it('a staff token stays a staff viewer without a grant; an administrator stays one', async () => {
    const viewer = await verifier.verify(await hsToken(validClaims({ roles: ['admin'] })));
    expect(viewer).toMatchObject({ tenantId: 't1', isAdmin: true });
    expect(viewer.grant).toBeUndefined();
  });

  it('a token signed with the service key but without its issuer goes to the staff key and is refused', async () => {
    const token = await hsToken(validClaims({ role: 'guest', sub: 'b1' }), OTHER_SECRET);
    expect((await expectUnauthenticated(verifier.verify(token))).message).toBe('Token signature is invalid');
  });

  it('a service-key token with any other role, or without sub, is refused', async () => {
    const exp = nowSeconds() + 600;
    const base = { iss: SERVICE_TOKEN_ISSUER, tenantId: 't1', exp };
    for (const claims of [
      { ...base, role: 'admin', sub: 'x' },
      { ...base, roles: ['admin'], role: 'guest', sub: 'b1' },
      { ...base, role: 'guest' }, // no sub
      { ...base, role: 'channel', sub: 'c1' }, // no name
      { ...base, role: 'waiter', sub: 'x' },
    ]) {
      await expectUnauthenticated(verifier.verify(await hsToken(claims, OTHER_SECRET)));
    }
  });

  it('a service token without tenantId, or with a bad one, is refused', async () => {
    const exp = nowSeconds() + 600;
    for (const tenantId of [undefined, '', 'a b', 7]) {
      const claims = { iss: SERVICE_TOKEN_ISSUER, role: 'guest', sub: 'b1', exp, tenantId };
      await expectUnauthenticated(verifier.verify(await hsToken(claims, OTHER_SECRET)));
    }
  });

  it('a tampered service token (another booking, tenant or role) is refused', async () => {
    const { token } = await issuer.guestToken({ tenantId: 't1', bookingId: 'b1', expiresAt: inAnHour() });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    for (const change of [
      { sub: 'b2' },
      { tenantId: 't2' },
      { role: 'channel', name: 'x' },
      { exp: (claims.exp as number) + 3600 },
    ]) {
      const changed = Buffer.from(JSON.stringify({ ...claims, ...change })).toString('base64url');
      const message = (await expectUnauthenticated(verifier.verify(`${header}.${changed}.${signature}`)))
        .message;
      expect(message).toBe('Token signature is invalid');
    }
  });

  it('reads the Authorization header once for both kinds', async () => {
    await expectUnauthenticated(verifier.verifyAuthorizationHeader(undefined));
    await expectUnauthenticated(verifier.verifyAuthorizationHeader('Basic abc'));
    const staffToken = await hsToken(validClaims());
    await expect(verifier.verifyAuthorizationHeader(`bearer ${staffToken}`)).resolves.toMatchObject({
      tenantId: 't1',
    });
  });

  it("names its bounded memories: the staff and the service verifiers' tokens, the channel directory's", async () => {
    const remembered = cachedChannelDirectory(channels, { maxEntries: 5 });
    const both = combineTokenVerifiers(
      { staff, service: createServiceTokenVerifier({ secret: OTHER_SECRET, channels: remembered }) },
      { maxTokenLength: 8192 },
    );
    const { token } = await issuer.channelKey({ tenantId: 't1', channelId: 'c9', channelName: 'Sito' });
    await both.verify(token);
    await both.verify(token);
    await both.verify(await hsToken(validClaims()));
    const bounded = both.bounded();
    expect(Object.keys(bounded).sort()).toEqual([
      'channel_directory',
      'service_verified_tokens',
      'verified_tokens',
    ]);
    expect(bounded.service_verified_tokens).toMatchObject({ entries: 1, capacity: 10_000, hits: 1 });
    expect(bounded.channel_directory).toMatchObject({ entries: 1, capacity: 5, hits: 1, misses: 1 });
    expect(bounded.verified_tokens!.entries).toBeGreaterThanOrEqual(1);
  });
});
