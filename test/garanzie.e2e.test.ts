// Guarantees through the REST facade and the Stripe webhook, in both modes, against stripe-mock: the policy, a
// booking pending with its guarantee, a signed Stripe event that makes it caparra_pagata (once), a cancellation
// charged by its tier; bad signatures refused (docs/payments.md).
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, SHARED_STACK_ENV, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_SECRET_KEY } = SHARED_STACK_ENV;
const signer = new Stripe(STRIPE_SECRET_KEY);

/** A local wall-clock time `hours` from now (Europe/Rome), on the quarter hour. */
function localIn(hours: number): string {
  const at = new Date(Math.ceil((Date.now() + hours * 3600_000) / (15 * 60_000)) * 15 * 60_000);
  return at.toLocaleString('sv-SE', { timeZone: 'Europe/Rome' }).replace(' ', 'T');
}

describe.each(MODES)('guarantees (%s mode)', (mode) => {
  let stack: Stack;
  let tenant: string;
  let staff: string;
  let admin: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    tenant = newTenantId();
    staff = await mintToken({ tenantId: tenant });
    admin = await mintToken({ tenantId: tenant, admin: true });
    const policy = await stack.api('PUT', '/api/garanzie/politica', {
      token: admin,
      body: {
        rules: [
          { type: 'deposit', minCovers: 6, amountPerCover: 1000, currency: 'eur' },
          { type: 'card', minCovers: 3, amountPerCover: 2000, currency: 'eur' },
        ],
        penalties: [
          { minHours: 48, percent: 0 },
          { minHours: 24, percent: 50 },
          { minHours: 0, percent: 100 },
        ],
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
  });
  afterAll(async () => stack?.close());

  const book = async (covers: number, hoursAhead: number) => {
    const res = await stack.api('POST', '/api/prenotazioni', {
      token: staff,
      body: { covers, bookingDate: localIn(hoursAhead), customerName: 'Bianchi' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const booking = async (id: string) =>
    (
      await stack.graphql(
        staff,
        'query($id: ID!) { prenotazione(id: $id) { state guarantee { status mode amount charged refunded clientSecret stripeIntentId } } }',
        { id },
      )
    ).body.data.prenotazione as { state: string; guarantee: Record<string, any> | null };
  const guaranteed = (id: string, until: (g: Record<string, any>) => boolean) =>
    vi.waitFor(
      async () => {
        const b = await booking(id);
        if (!b.guarantee || !until(b.guarantee)) throw new Error(JSON.stringify(b));
        return b;
      },
      { timeout: 15_000, interval: 100 },
    );
  const deliver = (payload: string, signature: string) =>
    stack.api('POST', '/webhooks/stripe', {
      raw: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      openapi: false,
    });
  const event = (id: string, type: string, intentId: string, bookingId: string) =>
    JSON.stringify({
      id,
      object: 'event',
      type,
      data: { object: { id: intentId, object: 'payment_intent', metadata: { tenantId: tenant, bookingId } } },
    });
  const signed = (payload: string, timestamp?: number) =>
    signer.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      ...(timestamp ? { timestamp } : {}),
    });

  it('policy → booking pending with its guarantee → signed webhook → caparra_pagata, once', async () => {
    expect((await stack.api('GET', '/api/garanzie/politica', { token: staff })).status).toBe(403);
    const read = await stack.api('GET', '/api/garanzie/politica', { token: admin });
    expect(read.body).toMatchObject({
      stripeConfigured: true,
      dueMinutes: 60,
      regole: [{ tipo: 'deposit' }, { tipo: 'card' }],
    });

    const id = await book(6, 72);
    const { guarantee, state } = await guaranteed(id, (g) => g.clientSecret);
    expect(state).toBe('pending');
    expect(guarantee).toMatchObject({ status: 'requested', mode: 'deposit', amount: 6000 });

    const payload = event(`evt_${id}`, 'payment_intent.succeeded', guarantee!.stripeIntentId, id);
    // Unsigned, wrongly signed, too old: 400, nothing changes.
    expect((await deliver(payload, 't=1,v1=00')).status).toBe(400);
    const wrong = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect((await deliver(payload, wrong)).status).toBe(400);
    expect((await deliver(payload, signed(payload, Math.floor(Date.now() / 1000) - 301))).status).toBe(400);
    expect((await booking(id)).state).toBe('pending');

    const first = await deliver(payload, signed(payload));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ received: true, esito: 'applied' });
    expect(await booking(id)).toMatchObject({ state: 'caparra_pagata', guarantee: { status: 'paid' } });
    const again = await deliver(payload, signed(payload));
    expect(again.body).toMatchObject({ esito: 'duplicate' });

    // A well-signed event the service did not make (no metadata of ours): 2xx, ignored.
    const foreign = JSON.stringify({
      id: 'evt_f',
      type: 'customer.created',
      data: { object: { id: 'cus_1' } },
    });
    expect((await deliver(foreign, signed(foreign))).status).toBe(200);
  });

  it('a cancellation within a tier charges its percent of the held card', async () => {
    const id = await book(4, 30);
    const { guarantee } = await guaranteed(id, (g) => g.clientSecret);
    expect(guarantee).toMatchObject({ mode: 'hold', amount: 8000 });
    const payload = event(
      `evt_h_${id}`,
      'payment_intent.amount_capturable_updated',
      guarantee!.stripeIntentId,
      id,
    );
    expect((await deliver(payload, signed(payload))).body).toMatchObject({ esito: 'applied' });
    expect((await booking(id)).state).toBe('caparra_pagata');

    const cancelled = await stack.api('POST', `/api/prenotazioni/${id}/annulla`, { token: staff, body: {} });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const settled = await guaranteed(id, (g) => g.status === 'charged');
    expect(settled.guarantee).toMatchObject({ charged: 4000, refunded: 0 });
    const stuck = await stack.api('GET', '/api/garanzie/bloccate', { token: staff });
    expect(stuck).toMatchObject({ status: 200, body: [] });
  });

  it('refuses bad policies (400), staff writes (403) and a bad account id (400)', async () => {
    const bad = await stack.api('PUT', '/api/garanzie/politica', {
      token: admin,
      body: { rules: [{ type: 'card', amountPerCover: 100 }], dueMinutes: 5 },
    });
    expect(bad.status).toBe(400);
    expect((await stack.api('PUT', '/api/garanzie/politica', { token: staff, body: {} })).status).toBe(403);
    const account = await stack.api('PUT', '/api/garanzie/stripe', {
      token: admin,
      body: { accountId: 'nope' },
    });
    expect(account.status).toBe(400);
  });
});
