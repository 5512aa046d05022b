import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeMock, type TestServer } from '../src/servers.js';
import { describeRefusals, watchStripeMock, type StripeMockWatch } from '../src/stripe-mock-watch.js';

// A private stripe-mock: a refusal sent through the run's shared one would (rightly) fail the whole run.
describe('the pass-through in front of stripe-mock', () => {
  let mock: TestServer;
  let watch: StripeMockWatch;
  beforeAll(async () => {
    mock = await startStripeMock();
    watch = await watchStripeMock(mock.url);
  });
  afterAll(async () => {
    await watch?.stop();
    await mock?.stop();
  });

  const stripe = (path: string, form: Record<string, string>) =>
    fetch(`${watch.url}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_123', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });

  it('passes an accepted request through unchanged and keeps nothing', async () => {
    const answer = await stripe('/v1/payment_intents', { amount: '2000', currency: 'eur' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ object: 'payment_intent' });
    expect(watch.refusals()).toEqual([]);
  });

  it('keeps a request Stripe’s API description refuses, with the answer naming why, and still hands it back', async () => {
    const answer = await stripe('/v1/payment_intents', { currency: 'eur', nonsense: '1' });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(watch.refusals()).toEqual([
      expect.objectContaining({ method: 'POST', path: '/v1/payment_intents', status: 400 }),
    ]);
    expect(watch.calls()).toBe(2);
    expect(describeRefusals(watch.refusals())).toMatch(
      /refused 1 of the service's requests[\s\S]*POST \/v1\/payment_intents → 400/,
    );
  });

  it('keeps every request with its idempotency key and body when asked to (a record of the service’s charges)', async () => {
    const keeping = await watchStripeMock(mock.url, { keepRequests: true });
    try {
      const answer = await fetch(`${keeping.url}/v1/payment_intents/pi_123/capture`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer sk_test_123',
          'content-type': 'application/x-www-form-urlencoded',
          'idempotency-key': 'coperto:t_1:b1:1:settle-capture',
        },
        body: new URLSearchParams({ amount_to_capture: '1500' }).toString(),
      });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      expect(keeping.requests()).toEqual([
        {
          method: 'POST',
          path: '/v1/payment_intents/pi_123/capture',
          idempotencyKey: 'coperto:t_1:b1:1:settle-capture',
          body: 'amount_to_capture=1500',
          status: 200,
        },
      ]);
      expect(watch.requests()).toEqual([]);
    } finally {
      await keeping.stop();
    }
  });
});
