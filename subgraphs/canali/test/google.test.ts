import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceTokenIssuer } from '@coperto/auth';
import type { InProcessSubgraphs, TypedDocumentNode } from '@coperto/server-kit';
import { mintToken, newTenantId, TEST_SERVICE_TOKEN_SECRET } from '@coperto/testkit';
import { doc, hostCanali, refusal, type Vars } from './hosted-canali.js';

const LINK = doc(
  'mutation($input: IntegrazioneGoogleInput!) { linkGoogle(input: $input) { merchantId canaleId channelId linkedAt } }',
);
const CURRENT = doc('{ integrazioneGoogle { merchantId channelId } }');
const LIST = doc('{ canali { id nome } }');
const DELETE = doc('mutation($id: ID!) { deleteCanale(id: $id) { id } }');
const MERCHANT = doc('query($m: String!) { googleMerchant(merchantId: $m) { tenantId channelId } }');
const CLAIM = doc(
  'mutation($t: String!, $u: String) { claimGoogleBooking(token: $t, userId: $u) { status answer } }',
);
const COMPLETE = doc(
  'mutation($t: String!, $a: String!, $b: ID, $u: String, $m: String!) { completeGoogleBooking(token: $t, answer: $a, bookingId: $b, userId: $u, merchantId: $m) }',
);
const RELEASE = doc('mutation($t: String!) { releaseGoogleBooking(token: $t) }');
const BOOKING = doc('query($b: ID!) { googleBooking(bookingId: $b) { token bookingId userId } }');
const BOOKINGS = doc('query($u: String!) { googleBookings(userId: $u) { token bookingId } }');
const USER_MERCHANTS = doc('query($u: String!) { googleUserMerchants(userId: $u) }');

const issuer = createServiceTokenIssuer({ secret: TEST_SERVICE_TOKEN_SECRET });
const bookingServer = async (tenantId: string) => `Bearer ${(await issuer.googleToken({ tenantId })).token}`;

describe("canali's Reserve with Google records", () => {
  let hosted: InProcessSubgraphs;
  let close: () => Promise<void>;
  let clock = Date.now();
  const call = (document: TypedDocumentNode<Record<string, unknown>, Vars>, vars: Vars, auth: string) =>
    hosted.client.request('canali', document, vars, auth);
  const tenant = async () => {
    const tenantId = newTenantId();
    return {
      tenantId,
      admin: `Bearer ${await mintToken({ tenantId, admin: true })}`,
      staff: `Bearer ${await mintToken({ tenantId })}`,
      server: await bookingServer(tenantId),
    };
  };
  const link = async (merchantId: string, auth: string) =>
    (await call(LINK, { input: { merchantId } }, auth)).linkGoogle as {
      merchantId: string;
      channelId: string;
    };
  const merchant = async (merchantId: string, auth: string) =>
    (await call(MERCHANT, { m: merchantId }, auth)).googleMerchant;

  beforeAll(async () => {
    ({ hosted, close } = await hostCanali(() => new Date(clock)));
  });
  afterAll(() => close());

  it('an administrator links a merchant id: a channel named Google carries its bookings', async () => {
    const t = await tenant();
    const merchantId = `m-${t.tenantId}`;
    const linked = await link(merchantId, t.admin);
    expect(linked).toMatchObject({ merchantId });
    expect((await call(LIST, {}, t.admin)).canali).toEqual([{ id: linked.channelId, nome: 'Google' }]);
    expect((await call(CURRENT, {}, t.admin)).integrazioneGoogle).toEqual({
      merchantId,
      channelId: linked.channelId,
    });
    // Linking again keeps the channel; the booking server finds the restaurant from the merchant id alone.
    expect((await link(merchantId, t.admin)).channelId).toBe(linked.channelId);
    expect(await merchant(merchantId, await bookingServer('any-tenant'))).toEqual({
      tenantId: t.tenantId,
      channelId: linked.channelId,
    });
  });

  it('another merchant id replaces the old one; a merchant id another restaurant linked is 409', async () => {
    const t = await tenant();
    const first = await link(`a-${t.tenantId}`, t.admin);
    const second = await link(`b-${t.tenantId}`, t.admin);
    expect(second.channelId).toBe(first.channelId);
    expect(await merchant(`a-${t.tenantId}`, t.server)).toBeNull();
    const other = await tenant();
    const taken = await refusal(link(`b-${t.tenantId}`, other.admin));
    expect(taken.code).toBe('DUPLICATE');
    expect((await call(LIST, {}, other.admin)).canali).toEqual([]);
    expect((await merchant(`b-${t.tenantId}`, t.server)) as { tenantId: string }).toMatchObject({
      tenantId: t.tenantId,
    });
  });

  it('deleting the Google channel disconnects the merchant; linking again makes a new channel', async () => {
    const t = await tenant();
    const merchantId = `d-${t.tenantId}`;
    const { channelId } = await link(merchantId, t.admin);
    await call(DELETE, { id: channelId }, t.admin);
    expect(await merchant(merchantId, t.server)).toBeNull();
    expect((await call(CURRENT, {}, t.admin)).integrazioneGoogle).toBeNull();
    const again = await link(merchantId, t.admin);
    expect(again.channelId).not.toBe(channelId);
    expect(await merchant(merchantId, t.server)).toEqual({
      tenantId: t.tenantId,
      channelId: again.channelId,
    });
  });

  it('refuses staff, bad merchant ids, and any caller but the booking server on its records', async () => {
    const t = await tenant();
    expect((await refusal(link('m1', t.staff))).code).toBe('FORBIDDEN');
    expect((await refusal(call(CURRENT, {}, t.staff))).code).toBe('FORBIDDEN');
    for (const bad of ['', 'has space', 'x'.repeat(129)]) {
      const error = await refusal(link(bad, t.admin));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details).toEqual({ fields: [expect.objectContaining({ field: 'merchantId' })] });
    }
    for (const auth of [t.admin, t.staff]) {
      expect((await refusal(merchant('m1', auth))).code).toBe('FORBIDDEN');
      expect((await refusal(call(CLAIM, { t: 'x' }, auth))).code).toBe('FORBIDDEN');
    }
  });

  it('concurrent claims of one idempotency token: one claims, the others wait for its answer', async () => {
    const t = await tenant();
    const claims = await Promise.all(
      Array.from({ length: 8 }, () => call(CLAIM, { t: 'tok-1', u: 'user-1' }, t.server)),
    );
    const statuses = claims.map((c) => (c.claimGoogleBooking as { status: string }).status);
    expect(statuses.filter((s) => s === 'claimed')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'pending')).toHaveLength(7);
    const answer = JSON.stringify({ booking: { booking_id: 'x' } });
    const done = { t: 'tok-1', a: answer, b: 'booking-1', u: 'user-1', m: `m-${t.tenantId}` };
    expect((await call(COMPLETE, done, t.server)).completeGoogleBooking).toBe(true);
    expect((await call(CLAIM, { t: 'tok-1' }, t.server)).claimGoogleBooking).toEqual({
      status: 'done',
      answer,
    });
    expect((await call(BOOKING, { b: 'booking-1' }, t.server)).googleBooking).toEqual({
      token: 'tok-1',
      bookingId: 'booking-1',
      userId: 'user-1',
    });
    expect((await call(BOOKINGS, { u: 'user-1' }, t.server)).googleBookings).toEqual([
      { token: 'tok-1', bookingId: 'booking-1' },
    ]);
    expect((await call(USER_MERCHANTS, { u: 'user-1' }, t.server)).googleUserMerchants).toContain(
      `m-${t.tenantId}`,
    );
    // Another restaurant's booking server sees none of it.
    const other = await tenant();
    expect((await call(BOOKING, { b: 'booking-1' }, other.server)).googleBooking).toBeNull();
    expect((await call(CLAIM, { t: 'tok-1' }, other.server)).claimGoogleBooking).toEqual({
      status: 'claimed',
      answer: null,
    });
  });

  it('a claim left pending past 30 s (its attempt died) is taken over by one repeat', async () => {
    const t = await tenant();
    expect((await call(CLAIM, { t: 'tok-3' }, t.server)).claimGoogleBooking).toMatchObject({
      status: 'claimed',
    });
    clock += 29_000;
    expect((await call(CLAIM, { t: 'tok-3' }, t.server)).claimGoogleBooking).toMatchObject({
      status: 'pending',
    });
    clock += 2_000;
    const repeats = await Promise.all(Array.from({ length: 4 }, () => call(CLAIM, { t: 'tok-3' }, t.server)));
    const statuses = repeats.map((r) => (r.claimGoogleBooking as { status: string }).status).sort();
    expect(statuses).toEqual(['claimed', 'pending', 'pending', 'pending']);
  });

  it('a released claim (a failure that made no booking) is claimed again by the retry', async () => {
    const t = await tenant();
    expect((await call(CLAIM, { t: 'tok-2' }, t.server)).claimGoogleBooking).toMatchObject({
      status: 'claimed',
    });
    expect((await call(RELEASE, { t: 'tok-2' }, t.server)).releaseGoogleBooking).toBe(true);
    expect((await call(CLAIM, { t: 'tok-2' }, t.server)).claimGoogleBooking).toMatchObject({
      status: 'claimed',
    });
  });
});
