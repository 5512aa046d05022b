// The webhooks subgraph on the real servers (MongoDB-protocol store, NATS JetStream), every delivery checked on the
// receiving side with the `standardwebhooks` package: endpoints, a receiver that is down and comes back, rotation,
// switching off after 5 days of failures, resend.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { buildEvent, type RestaurantEventType } from '@coperto/bus';
import { mintToken, newTenantId, uniqueName } from '@coperto/testkit';
import { DISABLE_AFTER_MS } from '../src/rules/disabling.js';
import { WEBHOOK_LIMITS } from '../src/webhook-input.js';
import { startInstance, type Instance } from './support/instance.js';
import {
  CREATE,
  DELETE,
  DELIVERIES,
  GET,
  LIST,
  RESEND,
  ROTATE,
  UPDATE,
  type DeliveryAnswer,
  type WebhookAnswer,
} from './support/operations.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const WAITS = [100, 200, 400, 800, 1600, 3200];
const clock = { offsetMs: 0 };
const wait = { timeout: 15_000, interval: 50 };

describe('webhooks on MongoDB and NATS', () => {
  let instance: Instance;
  let receiver: Receiver;
  let tenant: string;
  let admin: string;

  beforeAll(async () => {
    instance = await startInstance({
      database: uniqueName('webhooks'),
      tuning: { waits: WAITS, pollMs: 50, leaseMs: 5000, attemptTimeoutMs: 2000 },
      now: () => new Date(Date.now() + clock.offsetMs),
    });
  });
  afterAll(async () => {
    await instance?.stop();
  });
  beforeEach(async () => {
    clock.offsetMs = 0;
    receiver?.close();
    receiver = await startReceiver();
    tenant = newTenantId();
    admin = await mintToken({ tenantId: tenant, admin: true });
  });

  const publish = async (type: RestaurantEventType, forTenant = tenant) => {
    const { message, event } = buildEvent({
      tenantId: trustedTenantId(forTenant),
      type,
      source: '/test/webhooks',
      subject: 'b1',
      data: { id: 'b1', covers: 2 },
    });
    await instance.bus.publish(message.subject, event);
    return event.id;
  };
  const create = async (input: Record<string, unknown>) => {
    const { createWebhook } = await instance.run<{ createWebhook: WebhookAnswer }>(CREATE, { input }, admin);
    receiver.secrets.push(createWebhook.secret!);
    return createWebhook;
  };
  const deliveries = async (id: string) =>
    (await instance.run<{ consegneWebhook: DeliveryAnswer[] }>(DELIVERIES, { id }, admin)).consegneWebhook;

  it('administrators manage endpoints; the secret is shown once; anyone else is refused', async () => {
    const staff = await mintToken({ tenantId: tenant });
    expect(await instance.refusal(LIST, {}, staff)).toEqual(['FORBIDDEN']);
    expect(await instance.refusal(CREATE, { input: { url: 'mailto:x@example.com' } }, admin)).toEqual([
      'VALIDATION_FAILED',
    ]);
    expect(
      await instance.refusal(CREATE, { input: { url: receiver.url, events: ['bookings.eaten'] } }, admin),
    ).toEqual(['VALIDATION_FAILED']);
    const made = await create({ url: receiver.url, eventi: ['bookings.created', 'bookings.created'] });
    expect(made).toMatchObject({ url: receiver.url, eventi: ['bookings.created'], attivo: true });
    expect(made.secret).toMatch(/^whsec_/);
    expect(
      (await instance.run<{ webhook: WebhookAnswer }>(GET, { id: made.id }, admin)).webhook.secret,
    ).toBeNull();
    const { webhooks } = await instance.run<{ webhooks: WebhookAnswer[] }>(LIST, {}, admin);
    expect(webhooks.map((w) => [w.id, w.secret])).toEqual([[made.id, null]]);
    const changed = await instance.run<{ updateWebhook: WebhookAnswer }>(
      UPDATE,
      { id: made.id, input: { events: ['tables.status'], eventi: ['bookings.updated'], active: false } },
      admin,
    );
    expect(changed.updateWebhook).toMatchObject({ eventi: ['tables.status'], attivo: false, secret: null });
    // Another tenant's administrator sees nothing of it.
    const other = await mintToken({ tenantId: newTenantId(), admin: true });
    expect((await instance.run<{ webhook: unknown }>(GET, { id: made.id }, other)).webhook).toBeNull();
    expect(await instance.refusal(DELETE, { id: made.id }, other)).toEqual(['NOT_FOUND']);
    await instance.run(DELETE, { id: made.id }, admin);
    expect((await instance.run<{ webhook: unknown }>(GET, { id: made.id }, admin)).webhook).toBeNull();
    // At most WEBHOOK_LIMITS.maxEndpoints a tenant.
    const crowded = await mintToken({ tenantId: newTenantId(), admin: true });
    await Promise.all(
      Array.from({ length: WEBHOOK_LIMITS.maxEndpoints }, () =>
        instance.run(CREATE, { input: { url: receiver.url, active: false } }, crowded),
      ),
    );
    expect(await instance.refusal(CREATE, { input: { url: receiver.url } }, crowded)).toEqual([
      'VALIDATION_FAILED',
    ]);
  });

  it('a receiver down then back gets every event, signed; the log shows each failed attempt and its next try', async () => {
    await receiver.setMode('down');
    const all = await create({ url: receiver.url });
    const tablesOnly = await create({ url: receiver.url, events: ['tables.status'] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await publish('bookings.created'));
    const tableEvent = await publish('tables.status');
    await publish('bookings.created', newTenantId()); // another tenant's: never sent here
    await vi.waitFor(async () => {
      const log = await deliveries(all.id);
      expect(log).toHaveLength(6);
      for (const d of log) expect(d.tentativi.length).toBeGreaterThanOrEqual(2);
    }, wait);
    const failed = (await deliveries(all.id))[0]!.tentativi[0]!;
    expect(failed).toMatchObject({ statusCode: null, errore: expect.stringMatching(/ECONNREFUSED/) });
    expect(Date.parse(failed.prossimoTentativoAt!) - Date.parse(failed.at)).toBe(WAITS[0]);

    await receiver.setMode('up');
    await vi.waitFor(() => expect(receiver.delivered()).toEqual(new Set([...ids, tableEvent])), wait);
    for (const r of receiver.received) expect(r.verifiedWith.length).toBeGreaterThan(0);
    await vi.waitFor(
      async () => expect((await deliveries(all.id)).map((d) => d.stato)).toEqual(Array(6).fill('consegnata')),
      wait,
    );
    const tableDeliveries = await deliveries(tablesOnly.id);
    expect(tableDeliveries.map((d) => [d.eventoId, d.tipo])).toEqual([[tableEvent, 'tables.status']]);
    // Each delivered event's body is its CloudEvent.
    const body = receiver.received.find((r) => r.id === ids[0] && r.answered === 204)!.body;
    expect(body).toMatchObject({ id: ids[0], type: 'bookings.created', data: { id: 'b1', covers: 2 } });
  });

  it('an endpoint that answers again gets what it missed at once, not at each delivery’s next try', async () => {
    await receiver.setMode('down');
    const made = await create({ url: receiver.url });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await publish('bookings.created'));
    await vi.waitFor(async () => {
      const log = await deliveries(made.id);
      expect(log).toHaveLength(4);
      for (const d of log) expect(d.tentativi.length).toBeGreaterThanOrEqual(1);
    }, wait);
    // The service's clock goes back an hour: every next try now lies an hour ahead, so only the recovery can
    // make them due within this test.
    clock.offsetMs = -3_600_000;
    await receiver.setMode('up');
    // One delivery sent again succeeds; the three others follow without waiting for their hour.
    const [first] = await deliveries(made.id);
    await instance.run(RESEND, { id: made.id, c: first!.id }, admin);
    await vi.waitFor(() => expect(receiver.delivered()).toEqual(new Set(ids)), wait);
  });

  it('after a rotation both secrets sign, each signature verifying with its own secret', async () => {
    const made = await create({ url: receiver.url });
    const { ruotaSegretoWebhook } = await instance.run<{ ruotaSegretoWebhook: WebhookAnswer }>(
      ROTATE,
      { id: made.id },
      admin,
    );
    expect(ruotaSegretoWebhook.secret).toMatch(/^whsec_/);
    expect(ruotaSegretoWebhook.secret).not.toBe(made.secret);
    receiver.secrets.push(ruotaSegretoWebhook.secret!);
    const id = await publish('bookings.updated');
    await vi.waitFor(() => expect(receiver.delivered()).toContain(id), wait);
    expect(receiver.received[0]).toMatchObject({ signatures: 2, verifiedWith: [0, 1] });
  });

  it('an endpoint failing for 5 days is switched off (webhooks.disabled); switched on, a resend delivers', async () => {
    await receiver.setMode('failing');
    const made = await create({ url: receiver.url });
    const disabled = instance.bus.subscribe(`tenant.${tenant}.restaurant.webhooks.disabled`);
    const id = await publish('bookings.cancelled');
    await vi.waitFor(async () => {
      const { webhook } = await instance.run<{ webhook: WebhookAnswer }>(GET, { id: made.id }, admin);
      expect(webhook.inErroreDa).not.toBeNull();
    }, wait);
    expect((await deliveries(made.id))[0]!.tentativi[0]).toMatchObject({
      statusCode: 503,
      errore: 'HTTP 503',
    });
    clock.offsetMs = DISABLE_AFTER_MS + 60_000;
    const event = await (async () => {
      for await (const e of disabled) return e;
    })();
    expect(event).toMatchObject({
      type: 'webhooks.disabled',
      subject: made.id,
      data: { id: made.id, attivo: false },
    });
    expect(JSON.stringify(event)).not.toContain(made.secret!);
    await vi.waitFor(async () => expect((await deliveries(made.id))[0]!.stato).toBe('fallita'), wait);
    const attemptsBefore = receiver.received.length;

    await receiver.setMode('up');
    await instance.run(UPDATE, { id: made.id, input: { attivo: true } }, admin);
    const { webhook } = await instance.run<{ webhook: WebhookAnswer }>(GET, { id: made.id }, admin);
    expect(webhook).toMatchObject({ attivo: true, inErroreDa: null, disattivatoAt: null });
    const [delivery] = await deliveries(made.id);
    await instance.run(RESEND, { id: made.id, c: delivery!.id }, admin);
    await vi.waitFor(() => expect(receiver.delivered()).toContain(id), wait);
    expect(receiver.received.length).toBe(attemptsBefore + 1);
    expect(await instance.refusal(RESEND, { id: made.id, c: 'nope' }, admin)).toEqual(['NOT_FOUND']);
  });
});
