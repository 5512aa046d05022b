// POST /webhooks/stripe while garanzie is unreachable (distributed mode, its URL a port nothing listens on): a
// well-signed event is answered 503 so that Stripe delivers it again, never a 500 and never a 2xx that drops it;
// a badly signed one is still 400 (docs/payments.md, "For operators").
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SUBGRAPHS } from '@coperto/server-kit';
import { newTenantId, serverUrls, TEST_SERVICE_TOKEN_SECRET } from '@coperto/testkit';
import { injectableGateway } from './support/inject-gateway.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const signer = new Stripe('sk_test_unused');

describe('the Stripe webhook with garanzie unreachable (distributed gateway)', () => {
  let gateway: Awaited<ReturnType<typeof injectableGateway>>;
  beforeAll(async () => {
    const { mongoUrl, natsUrl, redisUrl } = serverUrls();
    gateway = await injectableGateway({
      COPERTO_MODE: 'distributed',
      MONGO_URL: mongoUrl,
      NATS_URL: natsUrl,
      REDIS_URL: redisUrl,
      MONGO_DATABASE: `webhook_outage_${randomBytes(4).toString('hex')}`,
      SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
      STRIPE_WEBHOOK_SECRET: SECRET,
      // Every subgraph on port 9 (discard): nothing answers.
      ...Object.fromEntries(
        ALL_SUBGRAPHS.map((name) => [`SUBGRAPH_${name.toUpperCase()}_URL`, 'http://127.0.0.1:9/graphql']),
      ),
    });
  });
  afterAll(() => gateway?.close());

  const deliver = (payload: string, secret = SECRET) =>
    gateway.http.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret }),
      },
      payload,
    });

  it('answers 503 UNAVAILABLE for a well-signed event of a booking, 400 for a badly signed one', async () => {
    const payload = JSON.stringify({
      id: 'evt_outage',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: 'pi_outage',
          object: 'payment_intent',
          metadata: { tenantId: newTenantId(), bookingId: 'b-1', tentativo: '1' },
        },
      },
    });
    const answer = await deliver(payload);
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.json()).toMatchObject({ error: { code: 'UNAVAILABLE' } });
    expect((await deliver(payload, 'whsec_other')).statusCode).toBe(400);
  });
});
