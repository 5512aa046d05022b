/** The replay part of the EventBus contract (contract.ts runs it for every bus that stores events). */
import { randomBytes } from 'node:crypto';
import { trustedTenantId } from '@coperto/auth';
import { expect, it } from 'vitest';
import { arrivalSequence, arrivalSubject } from '../../src/arrival-subject.js';
import { buildEvent } from '../../src/events.js';
import { natsSubject, type CloudEvent, type EventBus, type RestaurantEventType } from '../../src/types.js';

const OPTIONS = { windowMs: 60_000, maxEvents: 100 };

function publisher(bus: () => EventBus) {
  return async (tenant: string, type: RestaurantEventType, n: number): Promise<CloudEvent> => {
    const { message, event } = buildEvent({
      tenantId: trustedTenantId(tenant),
      type,
      source: '/test/replay',
      subject: `record-${n}`,
      data: { n },
    });
    await bus().publish(message.subject, event);
    return event;
  };
}

const newTenant = () => `replay_${randomBytes(5).toString('hex')}`;

/** Registers the replay tests; `bus` is the contract suite's open bus. */
export function describeReplay(bus: () => EventBus): void {
  const publish = publisher(bus);

  it('replays the events stored on a subject after an id, in order, each with its subject and sequence', async () => {
    const [a, b] = [newTenant(), newTenant()];
    const first = await publish(a, 'tables.status', 0);
    const later: CloudEvent[] = [];
    for (let n = 1; n <= 5; n++) {
      await publish(b, 'tables.status', n); // another tenant: never in a's replay
      await publish(a, 'bookings.created', n); // another subject of a's
      later.push(await publish(a, 'tables.status', n));
    }
    const subject = natsSubject(a, 'tables.status');
    const result = await bus().replay(subject, first.id, OPTIONS);
    if (!result.ok) throw new Error(`replay refused: ${result.reason}`);
    expect(result.events.map((e) => e.id)).toEqual(later.map((e) => e.id));
    expect(result.events.map((e) => arrivalSubject(e))).toEqual(later.map(() => subject));
    const sequences = result.events.map((e) => arrivalSequence(e)!);
    for (let i = 0; i < sequences.length; i++)
      expect(sequences[i]!).toBeGreaterThan(i === 0 ? result.afterSequence : sequences[i - 1]!);
    // The last event: nothing after it.
    expect(await bus().replay(subject, later.at(-1)!.id, OPTIONS)).toEqual({
      ok: true,
      afterSequence: sequences.at(-1),
      events: [],
    });
  });

  it('follow and replay number events alike, so a reader can tell where one ends and the other begins', async () => {
    const tenant = newTenant();
    const subject = natsSubject(tenant, 'bookings.updated');
    const followed = await bus().follow(subject);
    const first = await publish(tenant, 'bookings.updated', 1);
    const second = await publish(tenant, 'bookings.updated', 2);
    const iterator = followed[Symbol.asyncIterator]();
    const live = [(await iterator.next()).value as CloudEvent, (await iterator.next()).value as CloudEvent];
    followed.unsubscribe();
    const result = await bus().replay(subject, first.id, OPTIONS);
    if (!result.ok) throw new Error(`replay refused: ${result.reason}`);
    expect(live.map((e) => e.id)).toEqual([first.id, second.id]);
    expect(result.afterSequence).toBe(arrivalSequence(live[0]!));
    expect(result.events.map((e) => arrivalSequence(e))).toEqual([arrivalSequence(live[1]!)]);
  });

  it("is unknown for an id it never stored on the subject: another tenant's, another type's, made up", async () => {
    const [a, b] = [newTenant(), newTenant()];
    const others = await publish(b, 'tables.status', 1);
    const booking = await publish(a, 'bookings.created', 2);
    await publish(a, 'tables.status', 3);
    const subject = natsSubject(a, 'tables.status');
    const unknown = { ok: false, reason: 'unknown' };
    expect(await bus().replay(subject, others.id, OPTIONS)).toEqual(unknown);
    expect(await bus().replay(subject, booking.id, OPTIONS)).toEqual(unknown);
    expect(await bus().replay(subject, 'no-such-event', OPTIONS)).toEqual(unknown);
    expect(await bus().replay(natsSubject(newTenant(), 'tables.status'), booking.id, OPTIONS)).toEqual(
      unknown,
    );
  });

  it('refuses with too-many when more than maxEvents follow the id', async () => {
    const tenant = newTenant();
    const first = await publish(tenant, 'bookings.cancelled', 0);
    for (let n = 1; n <= 4; n++) await publish(tenant, 'bookings.cancelled', n);
    const subject = natsSubject(tenant, 'bookings.cancelled');
    expect(await bus().replay(subject, first.id, { ...OPTIONS, maxEvents: 3 })).toEqual({
      ok: false,
      reason: 'too-many',
    });
    const exact = await bus().replay(subject, first.id, { ...OPTIONS, maxEvents: 4 });
    expect(exact.ok && exact.events).toHaveLength(4);
  });

  it('refuses a subject with wildcards', async () => {
    await expect(bus().replay('tenant.*.restaurant.tables.status', 'x', OPTIONS)).rejects.toBeInstanceOf(
      TypeError,
    );
  });
}
