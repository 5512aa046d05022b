// The delivery log's retention on the real servers (MongoDB-protocol store, NATS): a finished delivery is removed
// 30 days after its last change, swept on the tenant's own events; a delivery still waiting for a retry stays.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { buildEvent } from '@coperto/bus';
import { mintToken, newTenantId, uniqueName } from '@coperto/testkit';
import { DELIVERY_RETENTION_MS } from '../src/rules/retention.js';
import { startInstance, type Instance } from './support/instance.js';
import { CREATE, DELIVERIES, type DeliveryAnswer, type WebhookAnswer } from './support/operations.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const DAY = 24 * 3_600_000;
const clock = { offsetMs: 0 };
const wait = { timeout: 15_000, interval: 50 };

describe('delivery retention', () => {
  let instance: Instance;
  let up: Receiver;
  let failing: Receiver;

  beforeAll(async () => {
    instance = await startInstance({
      database: uniqueName('webhooks_retention'),
      // A failed attempt waits longer than the retention period: the delivery stays waiting throughout.
      tuning: { waits: [DELIVERY_RETENTION_MS * 2], pollMs: 50, leaseMs: 5000, attemptTimeoutMs: 2000 },
      now: () => new Date(Date.now() + clock.offsetMs),
    });
    up = await startReceiver();
    failing = await startReceiver();
    await failing.setMode('failing');
  });
  afterAll(async () => {
    await instance?.stop();
    await up?.close();
    await failing?.close();
  });

  it('removes finished deliveries 30 days after their last change and keeps the waiting ones', async () => {
    const tenant = newTenantId();
    const admin = await mintToken({ tenantId: tenant, admin: true });
    const create = async (url: string) =>
      (
        await instance.run<{ createWebhook: WebhookAnswer }>(
          CREATE,
          // Not webhooks.disabled: the failing endpoint is switched off on the way, and that event is not under test.
          { input: { url, eventi: ['bookings.created'] } },
          admin,
        )
      ).createWebhook;
    const deliveries = async (id: string) =>
      (await instance.run<{ consegneWebhook: DeliveryAnswer[] }>(DELIVERIES, { id }, admin)).consegneWebhook;
    const publish = async () => {
      const { message, event } = buildEvent({
        tenantId: trustedTenantId(tenant),
        type: 'bookings.created',
        source: '/test/retention',
        subject: 'b1',
        data: { id: 'b1', covers: 2 },
      });
      await instance.bus.publish(message.subject, event);
      return event.id;
    };
    const delivered = await create(up.url);
    const waiting = await create(failing.url);

    const first = await publish();
    await vi.waitFor(async () => {
      expect((await deliveries(delivered.id)).map((d) => [d.eventoId, d.stato])).toEqual([
        [first, 'consegnata'],
      ]);
      expect((await deliveries(waiting.id)).map((d) => [d.eventoId, d.tentativi.length])).toEqual([
        [first, 1],
      ]);
    }, wait);

    // 29 days on, a new event sweeps the tenant: the first delivery is not 30 days old yet.
    clock.offsetMs = 29 * DAY;
    const second = await publish();
    await vi.waitFor(
      async () =>
        expect((await deliveries(delivered.id)).map((d) => [d.eventoId, d.stato])).toEqual([
          [second, 'consegnata'],
          [first, 'consegnata'],
        ]),
      wait,
    );

    // 31 days on: the next event's sweep removes the first delivery; the second (2 days old) stays, and so does
    // the other endpoint's first delivery, still waiting for its retry.
    clock.offsetMs = 31 * DAY;
    const third = await publish();
    await vi.waitFor(
      async () => expect((await deliveries(delivered.id)).map((d) => d.eventoId)).toEqual([third, second]),
      wait,
    );
    const stillWaiting = (await deliveries(waiting.id)).find((d) => d.eventoId === first);
    expect(stillWaiting?.stato).toBe('in_attesa');
  });
});
