import { trustedTenantId, type TenantId } from '@coperto/auth';
import { serverUrls, startNatsServer, uniqueName, type TestServer } from '@coperto/testkit';
import { connect, ErrorCode, NatsError, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeEventBus } from './support/contract.js';
import { BusUnavailableError } from '../src/errors.js';
import { buildEvent } from '../src/events.js';
import { connectNatsBus } from '../src/nats-bus.js';
import type { CloudEvent, EventBus, Subscription } from '../src/types.js';

describeEventBus('nats', () => connectNatsBus({ url: serverUrls().natsUrl, name: 'bus-contract' }));

function newTenant(): TenantId {
  return trustedTenantId(uniqueName('nats'));
}

function sample(type: 'tables.status' | 'bookings.created' = 'tables.status', n = 0, tenantId = newTenant()) {
  return buildEvent({ tenantId, type, source: '/test/nats', subject: `r${n}`, data: { n } });
}

/** Settles with the promise's outcome, or fails the test after `ms` (a deadline, not a timing assertion). */
async function settleWithin<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function nextEvent(sub: Subscription, ms = 5000): Promise<CloudEvent> {
  const result = await settleWithin(sub[Symbol.asyncIterator]().next(), ms);
  if (!result.ok) throw result.error;
  if (result.value.done) throw new Error('subscription ended');
  return result.value.value;
}

describe('NATS durable consumers', () => {
  let bus: EventBus;
  beforeAll(async () => {
    bus = await connectNatsBus({ url: serverUrls().natsUrl, name: 'bus-durable-test' });
  });
  afterAll(async () => {
    await bus?.close();
  });

  it('keeps what was published while no process consumed under the name, and hands each event to one of its holders', async () => {
    const tenant = newTenant();
    const durable = uniqueName('durable');
    const pattern = `tenant.${tenant}.restaurant.>`;
    const seen: string[] = [];
    const first = await bus.consume(pattern, { durable, handle: async (e) => void seen.push(e.id) });
    await first.stop();
    const meanwhile = sample('bookings.created', 1, tenant);
    await bus.publish(meanwhile.message.subject, meanwhile.event);
    const other = await connectNatsBus({ url: serverUrls().natsUrl, name: 'bus-durable-other' });
    try {
      const seenA: string[] = [];
      const seenB: string[] = [];
      const a = await bus.consume(pattern, { durable, handle: async (e) => void seenA.push(e.id) });
      const b = await other.consume(pattern, { durable, handle: async (e) => void seenB.push(e.id) });
      const more = Array.from({ length: 20 }, (_, n) => sample('bookings.created', n + 2, tenant));
      for (const { message, event } of more) await bus.publish(message.subject, event);
      const all = [meanwhile, ...more].map((m) => m.event.id);
      await vi.waitFor(() => expect(seenA.length + seenB.length).toBe(all.length), { timeout: 10_000 });
      expect([...seenA, ...seenB].sort()).toEqual([...all].sort());
      await a.stop();
      await b.stop();
    } finally {
      await other.close();
    }
  });
});

describe('NATS bus and JetStream', () => {
  let bus: EventBus;
  let nc: NatsConnection;

  beforeAll(async () => {
    bus = await connectNatsBus({ url: serverUrls().natsUrl, name: 'bus-jetstream-test' });
    nc = await connect({ servers: serverUrls().natsUrl });
  });
  afterAll(async () => {
    await bus?.close();
    await nc?.close();
  });

  it('creates the stream idempotently, also when several processes start at once', async () => {
    const buses = await Promise.all(
      Array.from({ length: 4 }, () => connectNatsBus({ url: serverUrls().natsUrl, name: 'bus-race' })),
    );
    await Promise.all(buses.map((b) => b.close()));
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info('RESTAURANT');
    expect(info.config.subjects).toContain('tenant.*.restaurant.>');
    expect(info.config.storage).toBe('file');
    expect(info.config.duplicate_window).toBe(120 * 1e9);
    expect(info.config.max_age).toBeGreaterThan(0);
  });

  it('stores the event in JetStream with Nats-Msg-Id and drops a second publish with the same id', async () => {
    const { message, event } = sample('bookings.created');
    await bus.publish(message.subject, event);
    await bus.publish(message.subject, event);

    const jsm = await nc.jetstreamManager();
    const stored = await jsm.streams.getMessage('RESTAURANT', { last_by_subj: message.subject });
    expect(stored.header.get('Nats-Msg-Id')).toBe(event.id);
    expect(stored.json<CloudEvent>()).toEqual(event);
    const perSubject = await jsm.streams.info('RESTAURANT', { subjects_filter: message.subject });
    expect(perSubject.state.subjects?.[message.subject]).toBe(1);

    const js = nc.jetstream();
    const ack = await js.publish(message.subject, new TextEncoder().encode(JSON.stringify(event)), {
      msgID: event.id,
    });
    expect(ack.duplicate).toBe(true);
  });

  it('publishes without building a timeout error ahead of each publish (no async traces)', async () => {
    const errorFor = vi.spyOn(NatsError, 'errorForCode');
    try {
      for (let n = 0; n < 5; n++) {
        const { message, event } = sample('bookings.created', n);
        await bus.publish(message.subject, event);
      }
      expect(errorFor.mock.calls.filter(([code]) => code === ErrorCode.Timeout)).toEqual([]);
    } finally {
      errorFor.mockRestore();
    }
  });

  it('delivers JetStream-published events to core subscribers of another connection', async () => {
    const { message, event } = sample();
    const other = await connectNatsBus({ url: serverUrls().natsUrl, name: 'bus-other' });
    try {
      const sub = other.subscribe(message.subject);
      await other.ping(2000);
      await bus.publish(message.subject, event);
      expect(await nextEvent(sub)).toEqual(event);
    } finally {
      await other.close();
    }
  });

  it('skips messages on a subject that are not CloudEvents', async () => {
    const { message, event } = sample();
    const sub = bus.subscribe(message.subject);
    await bus.ping(2000);
    nc.publish(message.subject, new TextEncoder().encode('not an envelope'));
    await nc.flush();
    await bus.publish(message.subject, event);
    expect(await nextEvent(sub)).toEqual(event);
    sub.unsubscribe();
  });
});

describe('NATS bus when the server dies and comes back', () => {
  let server: TestServer;
  let bus: EventBus;

  beforeAll(async () => {
    server = await startNatsServer();
    bus = await connectNatsBus({ url: server.url, name: 'bus-fault', publishTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await bus?.close();
    await server?.stop();
  });

  it('rejects publishes with BusUnavailableError while down, and delivers again after a restart', async () => {
    const tenantId = newTenant();
    const before = sample('tables.status', 1, tenantId);
    const sub = bus.subscribe(before.message.subject);
    await bus.publish(before.message.subject, before.event);
    expect(await nextEvent(sub)).toEqual(before.event);

    await server.kill();
    const down = sample('tables.status', 2, tenantId);
    const outcome = await settleWithin(bus.publish(down.message.subject, down.event), 10_000);
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toBeInstanceOf(BusUnavailableError);
    await expect(bus.ping(500)).rejects.toBeInstanceOf(BusUnavailableError);

    await server.restart();
    const after = sample('tables.status', 3, tenantId);
    // Reconnecting and JetStream recovery take a moment: retry within a deadline.
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await bus.publish(after.message.subject, after.event);
        break;
      } catch (error) {
        if (!(error instanceof BusUnavailableError) || Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect(await nextEvent(sub)).toEqual(after.event);
    expect(bus.status()).toEqual({ connected: true, reconnects: 1 });
    sub.unsubscribe();
  });

  it('follows without a gap: events published right after a restart reach a follower that was cut off', async () => {
    const follower = await connectNatsBus({ url: server.url, name: 'bus-follower' });
    const publisher = await connectNatsBus({ url: server.url, name: 'bus-follow-publisher' });
    try {
      const tenant = newTenant();
      const followed = await follower.follow(`tenant.${tenant}.restaurant.>`);
      const before = sample('tables.status', 0, tenant);
      await publisher.publish(before.message.subject, before.event);
      expect((await nextEvent(followed)).id).toBe(before.event.id);
      await server.kill();
      await server.restart();
      // Publish as soon as the publisher is back, whether or not the follower has reconnected yet.
      const during = Array.from({ length: 10 }, (_, n) => sample('tables.status', n + 1, tenant));
      for (const { message, event } of during) {
        const deadline = Date.now() + 30_000;
        for (;;) {
          try {
            await publisher.publish(message.subject, event);
            break;
          } catch (error) {
            if (!(error instanceof BusUnavailableError) || Date.now() > deadline) throw error;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      }
      const received: string[] = [];
      while (received.length < during.length) received.push((await nextEvent(followed, 30_000)).id);
      expect(received).toEqual(during.map((d) => d.event.id));
      followed.unsubscribe();
    } finally {
      await follower.close();
      await publisher.close();
    }
  });

  // Retried: in about 1 run of 4 on a loaded machine the publish was acknowledged within 7 ms of the SIGSTOP,
  // i.e. the pause had not taken effect (a paused server cannot send a PubAck); the harness's race, under
  // investigation (see the closing note of the seating turn). A bus that never rejects still fails all 3 tries.
  it(
    'rejects in bounded time while the server is paused (port open, nothing answers)',
    { retry: 2 },
    async () => {
      const { message, event } = sample('bookings.created', 4);
      server.pause();
      try {
        const outcome = await settleWithin(bus.publish(message.subject, event), 10_000);
        expect(!outcome.ok && outcome.error).toBeInstanceOf(BusUnavailableError);
        await expect(bus.ping(300)).rejects.toBeInstanceOf(BusUnavailableError);
      } finally {
        server.resume();
      }
      // The unacknowledged publish may still have been stored: publishing again with the same id is safe.
      await bus.publish(message.subject, event);
    },
  );

  it('closes without hanging while the server is down, ending its subscriptions', async () => {
    const other = await connectNatsBus({ url: server.url, name: 'bus-fault-close' });
    const sub = other.subscribe(`tenant.${newTenant()}.restaurant.>`);
    await server.kill();
    const outcome = await settleWithin(other.close(), 15_000);
    expect(outcome.ok).toBe(true);
    expect(await settleWithin(sub[Symbol.asyncIterator]().next(), 1000)).toEqual({
      ok: true,
      value: { done: true, value: undefined },
    });
    expect(other.status().connected).toBe(false);
  });
});
