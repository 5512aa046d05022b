/**
 * The EventBus contract suite: MemoryBus and NatsBus both pass it (`describeEventBus('nats', () =>
 * connectNatsBus(...))`). Every test makes its own tenants, so suites can share one NATS server.
 */
import { randomBytes } from 'node:crypto';
import { trustedTenantId, type TenantId } from '@coperto/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalSubject } from '../../src/arrival-subject.js';
import { BusUnavailableError } from '../../src/errors.js';
import { buildEvent } from '../../src/events.js';
import { describeReplay } from './replay-contract.js';
import {
  natsSubject,
  type CloudEvent,
  type EventBus,
  type RestaurantEventType,
  type Subscription,
} from '../../src/types.js';

const WAIT_MS = 5000;

/** A fresh tenant per test, so suites can share one NATS server. */
function newTenant(): TenantId {
  return trustedTenantId(`contract_${randomBytes(5).toString('hex')}`);
}

function makeEvent(
  tenantId: TenantId,
  type: RestaurantEventType,
  n = 0,
): { subject: string; event: CloudEvent } {
  const { message, event } = buildEvent({
    tenantId,
    type,
    source: '/test/contract',
    subject: `record-${n}`,
    data: { n, nested: { list: [1, 'two', null, true], text: 'città €' } },
  });
  return { subject: message.subject, event };
}

/** The next event, `'done'` when the iterator ended, or a failure after WAIT_MS. */
async function next(sub: Subscription): Promise<CloudEvent | 'done'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no event and no end within ${WAIT_MS} ms`)), WAIT_MS);
  });
  try {
    const result = await Promise.race([sub[Symbol.asyncIterator]().next(), deadline]);
    return result.done ? 'done' : result.value;
  } finally {
    clearTimeout(timer);
  }
}

async function take(sub: Subscription, count: number): Promise<CloudEvent[]> {
  const events: CloudEvent[] = [];
  while (events.length < count) {
    const event = await next(sub);
    if (event === 'done') throw new Error(`subscription ended after ${events.length} of ${count} events`);
    events.push(event);
  }
  return events;
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Registers the EventBus contract tests for one implementation. `open` returns a fresh, connected bus. */
export function describeEventBus(name: string, open: () => Promise<EventBus>): void {
  describe(`EventBus contract: ${name}`, () => {
    let bus: EventBus;
    const subs: Subscription[] = [];
    const subscribe = (...args: Parameters<EventBus['subscribe']>) => {
      const sub = bus.subscribe(...args);
      subs.push(sub);
      return sub;
    };

    beforeAll(async () => {
      bus = await open();
    });
    afterAll(async () => {
      for (const sub of subs) sub.unsubscribe();
      await bus?.close();
    });

    it('delivers a published event to a matching subscriber with the exact envelope', async () => {
      const { subject, event } = makeEvent(newTenant(), 'tables.status');
      const sub = subscribe(subject);
      await bus.publish(subject, event);
      expect(await next(sub)).toEqual(event);
    });

    it('tells the subject each event arrived on, not the tenant its body claims (subscribe and follow)', async () => {
      const [a, b] = [newTenant(), newTenant()];
      const forged = makeEvent(b, 'tables.status');
      const subject = natsSubject(a, 'tables.status');
      const sub = subscribe(`tenant.${a}.restaurant.>`);
      const followed = await bus.follow(`tenant.${a}.restaurant.>`);
      subs.push(followed);
      await bus.publish(subject, forged.event);
      const [delivered] = await take(sub, 1);
      const [replayed] = await take(followed, 1);
      expect(delivered!.tenantid).toBe(b);
      expect(arrivalSubject(delivered!)).toBe(subject);
      expect(arrivalSubject(replayed!)).toBe(subject);
      expect(arrivalSubject(forged.event)).toBeUndefined();
      followed.unsubscribe();
    });

    it('follows a subject: every event published after follow() resolved, in order, only matching ones', async () => {
      const tenant = newTenant();
      const followed = await bus.follow(`tenant.${tenant}.restaurant.>`);
      subs.push(followed);
      const events = [
        makeEvent(tenant, 'tables.status'),
        makeEvent(newTenant(), 'tables.status'),
        makeEvent(tenant, 'bookings.created'),
      ];
      for (const { subject, event } of events) await bus.publish(subject, event);
      expect(await next(followed)).toEqual(events[0]!.event);
      expect(await next(followed)).toEqual(events[2]!.event);
      followed.unsubscribe();
    });

    it('`>` matches all of one tenant and never another', async () => {
      const a = newTenant();
      const b = newTenant();
      const sub = subscribe(`tenant.${a}.restaurant.>`);
      const sent = [
        makeEvent(b, 'tables.status', 1),
        makeEvent(a, 'tables.status', 2),
        makeEvent(b, 'bookings.created', 3),
        makeEvent(a, 'bookings.created', 4),
        makeEvent(a, 'bookings.cancelled', 5),
        makeEvent(b, 'bookings.cancelled', 6),
        makeEvent(a, 'bookings.updated', 7),
      ];
      for (const { subject, event } of sent) await bus.publish(subject, event);
      const expected = sent.filter((s) => s.event.tenantid === a).map((s) => s.event.id);
      const received = await take(sub, expected.length);
      expect(received.map((e) => e.id)).toEqual(expected);
      expect(received.every((e) => e.tenantid === a)).toBe(true);
    });

    it('`*` matches exactly one token', async () => {
      const a = newTenant();
      const sub = subscribe(`tenant.${a}.restaurant.bookings.*`);
      const sent = [
        makeEvent(a, 'tables.status', 1),
        makeEvent(a, 'bookings.created', 2),
        makeEvent(a, 'bookings.cancelled', 3),
      ];
      for (const { subject, event } of sent) await bus.publish(subject, event);
      const received = await take(sub, 2);
      expect(received.map((e) => e.type)).toEqual(['bookings.created', 'bookings.cancelled']);
    });

    it('delivers to every matching subscriber', async () => {
      const a = newTenant();
      const { subject, event } = makeEvent(a, 'bookings.updated');
      const all = [
        subscribe(subject),
        subscribe(subject),
        subscribe(`tenant.${a}.>`),
        subscribe(`tenant.*.restaurant.bookings.updated`),
      ];
      await bus.publish(subject, event);
      for (const sub of all.slice(0, 3)) expect(await next(sub)).toEqual(event);
      // The cross-tenant pattern may also see other suites' events on a shared server: look for ours.
      const crossTenant = all[3]!;
      let found: CloudEvent | 'done' = await next(crossTenant);
      while (found !== 'done' && found.id !== event.id) found = await next(crossTenant);
      expect(found).toEqual(event);
    });

    it('unsubscribe ends the iterator', async () => {
      const { subject, event } = makeEvent(newTenant(), 'tables.status');
      const sub = subscribe(subject);
      sub.unsubscribe();
      expect(await next(sub)).toBe('done');
      await bus.publish(subject, event);
      expect(await next(sub)).toBe('done');
    });

    it('breaking out of for-await ends the subscription', async () => {
      const a = newTenant();
      const first = makeEvent(a, 'tables.status', 1);
      const second = makeEvent(a, 'tables.status', 2);
      const sub = subscribe(first.subject);
      await bus.publish(first.subject, first.event);
      const seen: string[] = [];
      for await (const event of sub) {
        seen.push(event.id);
        break;
      }
      await bus.publish(second.subject, second.event);
      expect(seen).toEqual([first.event.id]);
      expect(await next(sub)).toBe('done');
    });

    it('does not deliver events published before the subscription', async () => {
      const a = newTenant();
      const before = makeEvent(a, 'bookings.created', 1);
      const after = makeEvent(a, 'bookings.created', 2);
      await bus.publish(before.subject, before.event);
      const sub = subscribe(before.subject);
      await bus.publish(after.subject, after.event);
      expect((await take(sub, 1))[0]?.id).toBe(after.event.id);
    });

    it('keeps the order of one publisher', async () => {
      const a = newTenant();
      const sent = Array.from({ length: 50 }, (_, i) => makeEvent(a, 'tables.status', i));
      const sub = subscribe(`tenant.${a}.restaurant.tables.status`);
      for (const { subject, event } of sent) await bus.publish(subject, event);
      const received = await take(sub, sent.length);
      expect(received.map((e) => e.data)).toEqual(sent.map((s) => s.event.data));
    });

    it('ends a subscription whose consumer falls behind maxPending, calling onOverflow once', async () => {
      const a = newTenant();
      let overflows = 0;
      const sub = subscribe(`tenant.${a}.restaurant.>`, { maxPending: 3, onOverflow: () => overflows++ });
      for (let i = 0; i < 10; i++) {
        const { subject, event } = makeEvent(a, 'tables.status', i);
        await bus.publish(subject, event);
      }
      await eventually(() => overflows > 0, 'onOverflow');
      expect(await next(sub)).toBe('done');
      expect(overflows).toBe(1);
    });

    it('rejects invalid subjects', async () => {
      const { event } = makeEvent(newTenant(), 'tables.status');
      await expect(bus.publish('tenant.*.restaurant.tables.status', event)).rejects.toBeInstanceOf(TypeError);
      await expect(bus.publish('tenant..x', event)).rejects.toBeInstanceOf(TypeError);
      expect(() => bus.subscribe('tenant.>.restaurant')).toThrow(TypeError);
      expect(() => bus.subscribe('')).toThrow(TypeError);
    });

    it('reports connected and answers ping', async () => {
      expect(bus.status().connected).toBe(true);
      const rtt = await bus.ping(2000);
      expect(typeof rtt).toBe('number');
      expect(rtt).toBeGreaterThanOrEqual(0);
    });

    it('close ends subscriptions, then refuses publishes', async () => {
      const other = await open();
      const { subject, event } = makeEvent(newTenant(), 'tables.status');
      const sub = other.subscribe(subject);
      await other.close();
      expect(await next(sub)).toBe('done');
      expect(other.status().connected).toBe(false);
      await expect(other.publish(subject, event)).rejects.toBeInstanceOf(BusUnavailableError);
      await expect(other.ping(1000)).rejects.toBeInstanceOf(BusUnavailableError);
      await other.close();
    });

    it('consumes durably: every matching event with its subject until handled; resumes by name', async () => {
      const tenant = newTenant();
      const durable = `contract_${randomBytes(4).toString('hex')}`;
      const handled: Array<{ id: string; subject: string }> = [];
      let failNext = true;
      const handle = async (event: CloudEvent, subject: string) => {
        if (event.subject === 'record-2' && failNext) {
          failNext = false;
          throw new Error('handler failed once (test)');
        }
        handled.push({ id: event.id, subject });
      };
      const consumer = await bus.consume(`tenant.${tenant}.restaurant.bookings.>`, { durable, handle });
      const events = [
        makeEvent(tenant, 'bookings.created', 1),
        makeEvent(tenant, 'tables.status', 9),
        makeEvent(tenant, 'bookings.updated', 2),
      ];
      for (const { subject, event } of events) {
        // MemoryBus: publish rejects while the handler fails (the outbox publishes it again).
        await bus.publish(subject, event).catch(() => bus.publish(subject, event));
      }
      await eventually(() => handled.length >= 2, 'both booking events handled');
      expect(handled).toEqual([
        { id: events[0]!.event.id, subject: events[0]!.subject },
        { id: events[2]!.event.id, subject: events[2]!.subject },
      ]);
      expect(failNext).toBe(false);
      await consumer.stop();
      const resumed = await bus.consume(`tenant.${tenant}.restaurant.bookings.>`, { durable, handle });
      const later = makeEvent(tenant, 'bookings.cancelled', 3);
      await bus.publish(later.subject, later.event);
      await eventually(() => handled.some((h) => h.id === later.event.id), 'an event after resuming');
      expect(handled).toHaveLength(3);
      await resumed.stop();
    });

    describe('replay', () => describeReplay(() => bus));

    it('refuses a durable name that is not a plain token', async () => {
      await expect(
        bus.consume('tenant.x.restaurant.>', { durable: 'bad.name', handle: async () => {} }),
      ).rejects.toBeInstanceOf(TypeError);
    });
  });
}
