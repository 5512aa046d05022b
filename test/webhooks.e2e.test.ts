// Outbound webhooks through the REST facade, in both modes: an administrator registers an endpoint (the secret shown
// once), a booking's events travel outbox → bus → webhooks' durable consumer → a signed POST to a real local
// receiver that verifies them with the `standardwebhooks` package; the delivery log, rotation (two signatures),
// resend, tenant isolation and validation (docs/integrations.md).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

interface Hit {
  id: string;
  body: string;
  headers: Record<string, string>;
}

/** The app maker's endpoint: keeps every request as received. */
async function startReceiver(): Promise<{ url: string; hits: Hit[]; server: Server }> {
  const hits: Hit[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(request.headers[h])]),
      );
      hits.push({ id: headers['webhook-id']!, body: Buffer.concat(chunks).toString('utf8'), headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/coperto`, hits, server };
}

/** What a receiver holding `secret` makes of a request: the event, or the verification error. */
const verify = (secret: string, hit: Hit) =>
  new Webhook(secret).verify(hit.body, hit.headers) as { id: string; type: string; data: { id: string } };

describe.each(MODES)('webhooks (%s mode)', (mode) => {
  let stack: Stack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: string;
  beforeAll(async () => {
    receiver = await startReceiver();
    admin = await mintToken({ tenantId: newTenantId(), admin: true });
    // The shared stack runs with WEBHOOKS_ALLOW_PRIVATE=true (SHARED_STACK_ENV): the receiver is on loopback.
    stack = await startStack(mode);
  });
  afterAll(async () => {
    await stack?.close();
    receiver?.server.close();
  });

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, token = admin) =>
    stack.api(method, path, { token, ...(body === undefined ? {} : { body }) });
  const received = (id: string, count = 1) =>
    vi.waitFor(
      () => {
        const hits = receiver.hits.filter((h) => h.id === id);
        expect(hits.length).toBeGreaterThanOrEqual(count);
        return hits;
      },
      { timeout: 15_000, interval: 50 },
    );

  it('delivers a booking’s events signed, logs them, rotates with two signatures, resends, and keeps tenants apart', async () => {
    const staff = await mintToken({ tenantId: newTenantId() });
    expect((await api('GET', '/api/webhooks', undefined, staff)).status).toBe(403);
    const badUrl = await api('POST', '/api/webhooks', { url: 'ftp://example.com/x' });
    expect(badUrl.status).toBe(400);
    expect(JSON.stringify(badUrl.body)).toContain('url');
    expect(
      (await api('POST', '/api/webhooks', { url: receiver.url, eventi: ['bookings.eaten'] })).status,
    ).toBe(400);

    const made = await api('POST', '/api/webhooks', {
      url: receiver.url,
      eventi: ['bookings.created', 'bookings.cancelled'],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { id, secret } = made.body as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect((await api('GET', `/api/webhooks/${id}`)).body).not.toHaveProperty('secret');

    const booking = await api('POST', '/api/prenotazioni', {
      covers: 2,
      bookingDate: '2027-09-10T20:00:00',
      customerName: 'Ada',
    });
    expect(booking.status).toBe(201);
    const bookingId = booking.body.id as string;
    const deliveries = async () =>
      (await api('GET', `/api/webhooks/${id}/consegne`)).body as Array<Record<string, any>>;
    const created = await vi.waitFor(
      async () => {
        const [first] = await deliveries();
        expect(first?.stato).toBe('consegnata');
        return first!;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(created).toMatchObject({
      tipo: 'bookings.created',
      state: 'consegnata',
      tentativi: [{ statusCode: 204, errore: null }],
    });
    const [createdHit] = await received(created.eventoId);
    expect(verify(secret, createdHit!)).toMatchObject({ type: 'bookings.created', data: { id: bookingId } });
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, createdHit!)).toThrow();

    const rotated = await api('POST', `/api/webhooks/${id}/ruota`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(secret);
    expect((await api('POST', `/api/prenotazioni/${bookingId}/annulla`, { motivo: 'test' })).status).toBe(
      200,
    );
    const cancelled = await vi.waitFor(
      async () => {
        const found = (await deliveries()).find((d) => d.tipo === 'bookings.cancelled');
        expect(found?.stato).toBe('consegnata');
        return found!;
      },
      { timeout: 15_000, interval: 50 },
    );
    const [cancelledHit] = await received(cancelled.eventoId);
    expect(cancelledHit!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const key of [secret, fresh])
      expect(verify(key, cancelledHit!)).toMatchObject({ type: 'bookings.cancelled' });

    const resent = await api('POST', `/api/webhooks/${id}/consegne/${created.id}/reinvia`);
    expect(resent.status).toBe(200);
    const again = await received(created.eventoId, 2);
    expect(verify(fresh, again[1]!)).toMatchObject({ id: created.eventoId });

    const other = await mintToken({ tenantId: newTenantId(), admin: true });
    expect((await api('GET', `/api/webhooks/${id}`, undefined, other)).status).toBe(404);
    expect((await api('GET', `/api/webhooks/${id}/consegne`, undefined, other)).status).toBe(404);
    expect((await api('PATCH', `/api/webhooks/${id}`, { attivo: false })).body).toMatchObject({
      attivo: false,
      active: false,
    });
    expect((await api('DELETE', `/api/webhooks/${id}`)).status).toBe(200);
    expect((await api('GET', `/api/webhooks/${id}`)).status).toBe(404);
  });
});
