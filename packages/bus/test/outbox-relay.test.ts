import { trustedTenantId } from '@coperto/auth';
import type {
  ClaimOptions,
  OutboxAcknowledgement,
  OutboxMessage,
  OutboxSource,
  PendingOutbox,
} from '@coperto/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusUnavailableError } from '../src/errors.js';
import { buildEvent } from '../src/events.js';
import { createMemoryBus } from '../src/memory-bus.js';
import { createOutboxRelay } from '../src/outbox/relay.js';
import type { OutboxRelay, OutboxRelayOptions } from '../src/outbox/relay-types.js';
import type { CloudEvent, EventBus, Subscription } from '../src/types.js';

const tenantId = trustedTenantId('relay');
const WAIT = { timeout: 5000, interval: 10 };

/** A small in-memory OutboxSource with the store's claim/lease semantics and a call log. */
class MemoryOutbox implements OutboxSource {
  readonly records = new Map<string, { messages: OutboxMessage[]; leasedUntil: number }>();
  readonly acks: Array<{ id: string; messageIds: string[] }> = [];
  failClaims = 0;
  failAcks = 0;
  /** Whether acknowledge ends the claim (a store may also keep it until the lease runs out). */
  releaseOnAck = true;

  write(id: string, messages: OutboxMessage[]): void {
    const record = this.records.get(id) ?? { messages: [], leasedUntil: 0 };
    record.messages.push(...messages);
    this.records.set(id, record);
  }

  pendingIds(): string[] {
    return [...this.records.values()].flatMap((r) => r.messages.map((m) => m.id));
  }

  /** The `afterWrites` option of each claim, in order. */
  readonly claimsAfterWrites: boolean[] = [];

  async claimPending(limit: number, leaseMs: number, options: ClaimOptions = {}): Promise<PendingOutbox[]> {
    this.claimsAfterWrites.push(options.afterWrites === true);
    if (this.failClaims > 0) {
      this.failClaims--;
      throw new Error('store down (claim)');
    }
    const now = Date.now();
    const claimed: PendingOutbox[] = [];
    for (const [id, record] of this.records) {
      if (claimed.length >= limit) break;
      if (record.messages.length === 0 || record.leasedUntil > now) continue;
      record.leasedUntil = now + leaseMs;
      claimed.push({ collection: 'tavoli', tenantId, id, messages: record.messages.map((m) => ({ ...m })) });
    }
    return claimed;
  }

  /** Store calls to acknowledge: one per round. */
  ackCalls = 0;
  /** While set, every acknowledgement waits for it (a slow disk flush or store round trip). */
  ackGate: Promise<void> | null = null;

  async acknowledge(acks: readonly OutboxAcknowledgement[]): Promise<boolean> {
    this.ackCalls++;
    if (this.ackGate) await this.ackGate;
    if (this.failAcks > 0) {
      this.failAcks--;
      throw new Error('store down (ack)');
    }
    let releasedWithEvents = false;
    for (const { pending, messageIds } of acks) {
      const record = this.records.get(pending.id);
      if (!record) continue;
      this.acks.push({ id: pending.id, messageIds: [...messageIds] });
      record.messages = record.messages.filter((m) => !messageIds.includes(m.id));
      if (this.releaseOnAck) {
        record.leasedUntil = 0;
        if (record.messages.length > 0) releasedWithEvents = true;
      }
    }
    return releasedWithEvents;
  }

  async countPending(): Promise<number> {
    return [...this.records.values()].filter((r) => r.messages.length > 0).length;
  }
}

/** A MemoryBus that can be switched down (rejects) or held (publish waits until released). */
class FlakyBus implements EventBus {
  readonly inner = createMemoryBus();
  down = false;
  /** Ids in the order the bus accepted them. */
  readonly accepted: string[] = [];
  private held: Array<() => void> | null = null;
  failOnId: string | null = null;
  /** Ids the bus always refuses with a non-availability error (a message it cannot take). */
  readonly poison = new Set<string>();

  hold(): void {
    this.held = [];
  }
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const go of held) go();
  }
  heldCount(): number {
    return this.held?.length ?? 0;
  }

  async publish(subject: string, event: CloudEvent): Promise<void> {
    if (this.held) await new Promise<void>((go) => this.held?.push(go));
    if (this.down) throw new BusUnavailableError('bus down (test)');
    if (this.poison.has(event.id)) throw new TypeError('poison (test)');
    if (event.id === this.failOnId) {
      this.failOnId = null;
      throw new BusUnavailableError('one failure (test)');
    }
    await this.inner.publish(subject, event);
    this.accepted.push(event.id);
  }
  follow(...args: Parameters<EventBus['follow']>): Promise<Subscription> {
    return this.inner.follow(...args);
  }
  consume(...args: Parameters<EventBus['consume']>) {
    return this.inner.consume(...args);
  }
  replay(...args: Parameters<EventBus['replay']>) {
    return this.inner.replay(...args);
  }
  subscribe(...args: Parameters<EventBus['subscribe']>): Subscription {
    return this.inner.subscribe(...args);
  }
  ping(timeoutMs?: number) {
    return this.inner.ping(timeoutMs);
  }
  status() {
    return this.inner.status();
  }
  close() {
    return this.inner.close();
  }
}

function events(recordId: string, count: number): OutboxMessage[] {
  return Array.from(
    { length: count },
    (_, i) =>
      buildEvent({
        tenantId,
        type: 'tables.status',
        source: '/test/relay',
        subject: recordId,
        data: { recordId, i },
      }).message,
  );
}

/** Collects every event the subscription yields, in order. */
function collect(sub: Subscription): CloudEvent[] {
  const seen: CloudEvent[] = [];
  void (async () => {
    for await (const event of sub) seen.push(event);
  })();
  return seen;
}

const open: Array<{ relay: OutboxRelay; bus: EventBus }> = [];
afterEach(async () => {
  for (const { relay, bus } of open.splice(0)) {
    await relay.stop();
    await bus.close();
  }
});

function setUp(overrides: Partial<OutboxRelayOptions> = {}) {
  const source = new MemoryOutbox();
  const bus = new FlakyBus();
  const errors: unknown[] = [];
  const relay = createOutboxRelay({
    source,
    bus,
    pollIntervalMs: 10,
    maxBackoffMs: 40,
    onError: (error) => errors.push(error),
    ...overrides,
  });
  open.push({ relay, bus });
  const received = collect(bus.subscribe(`tenant.${tenantId}.restaurant.>`, { maxPending: 100_000 }));
  return { source, bus, relay, errors, received };
}

/** Per record, the ids in the order the subscriber saw them. */
function idsByRecord(received: CloudEvent[]): Map<string, string[]> {
  const byRecord = new Map<string, string[]>();
  for (const event of received)
    byRecord.set(event.subject, [...(byRecord.get(event.subject) ?? []), event.id]);
  return byRecord;
}

describe('outbox relay', () => {
  it('publishes every pending event in write order and drains the outbox', async () => {
    const { source, relay, received } = setUp({ batchSize: 2 });
    const written = new Map(['T1', 'T2', 'T3', 'T4', 'T5'].map((id) => [id, events(id, 3)]));
    for (const [id, messages] of written) source.write(id, messages);
    relay.start();
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), WAIT);
    expect(received).toHaveLength(15);
    const seen = idsByRecord(received);
    for (const [id, messages] of written) expect(seen.get(id)).toEqual(messages.map((m) => m.id));
    expect(relay.stats()).toMatchObject({ published: 15, lastError: null });
    expect(relay.stats().lastSuccess).toMatch(/Z$/);
  });

  it('acknowledges a round of records in one store call', async () => {
    const { source, relay } = setUp({ batchSize: 10, pollIntervalMs: 600_000 });
    for (const id of ['R1', 'R2', 'R3', 'R4', 'R5', 'R6']) source.write(id, events(id, 2));
    relay.start();
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), WAIT);
    expect(source.acks.map((ack) => ack.id).sort()).toEqual(['R1', 'R2', 'R3', 'R4', 'R5', 'R6']);
    expect(source.ackCalls).toBe(1);
  });

  it("publishes a kicked write while the previous round's acknowledgement is still running, one acknowledgement at a time", async () => {
    const { source, relay, received } = setUp({ pollIntervalMs: 600_000 });
    let openGate = () => {};
    source.ackGate = new Promise<void>((resolve) => (openGate = resolve));
    const first = events('F1', 1);
    source.write('F1', first);
    relay.start();
    await vi.waitFor(() => expect(source.ackCalls).toBe(1), WAIT);
    const second = events('F2', 1);
    source.write('F2', second);
    relay.kick();
    // F2 reaches the bus while F1's acknowledgement has not landed; F1 (still leased) is not published again.
    await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual([first[0]!.id, second[0]!.id]), WAIT);
    expect(source.ackCalls).toBe(1);
    expect(source.acks).toEqual([]);
    source.ackGate = null;
    openGate();
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), WAIT);
    expect(source.acks.map((ack) => ack.id)).toEqual(['F1', 'F2']);
    expect(received).toHaveLength(2);
    await relay.stop();
  });

  it('acknowledges the rounds published within ackIntervalMs in one store call, and what waits when it stops', async () => {
    const { source, relay, received } = setUp({ pollIntervalMs: 600_000, ackIntervalMs: 600_000 });
    source.write('A1', events('A1', 1));
    relay.start();
    // The first acknowledgement has nothing before it to wait for.
    await vi.waitFor(() => expect(source.acks.map((ack) => ack.id)).toEqual(['A1']), WAIT);
    for (const id of ['A2', 'A3']) {
      source.write(id, events(id, 1));
      relay.kick();
      await vi.waitFor(() => expect(received.map((e) => e.subject)).toContain(id), WAIT);
    }
    // Both published in rounds of their own, neither acknowledged yet: the interval has not passed.
    expect(source.ackCalls).toBe(1);
    expect(await source.countPending()).toBe(2);
    await relay.stop();
    expect(source.ackCalls).toBe(2);
    expect(source.acks.map((ack) => ack.id)).toEqual(['A1', 'A2', 'A3']);
    expect(await source.countPending()).toBe(0);
  });

  it('acknowledges at once when a full batch waits, whatever the interval', async () => {
    const { source, relay } = setUp({ pollIntervalMs: 600_000, ackIntervalMs: 600_000, batchSize: 2 });
    source.write('B1', events('B1', 1));
    relay.start();
    await vi.waitFor(() => expect(source.ackCalls).toBe(1), WAIT);
    for (const id of ['B2', 'B3']) source.write(id, events(id, 1));
    relay.kick();
    await vi.waitFor(() => expect(source.ackCalls).toBe(2), WAIT);
    expect(source.acks.map((ack) => ack.id)).toEqual(['B1', 'B2', 'B3']);
    await relay.stop();
  });

  it('a second change to a record within ackIntervalMs is not held back by the acknowledgement waiting for it', async () => {
    const { source, relay, received } = setUp({ pollIntervalMs: 600_000, ackIntervalMs: 600_000 });
    source.write('S0', events('S0', 1));
    relay.start();
    // The first acknowledgement has nothing before it to wait for; the next one waits ten minutes.
    await vi.waitFor(() => expect(source.ackCalls).toBe(1), WAIT);
    const [first, second] = events('S1', 2);
    source.write('S1', [first!]);
    relay.kick();
    await vi.waitFor(() => expect(received.map((e) => e.id)).toContain(first!.id), WAIT);
    expect(source.ackCalls).toBe(1);
    // S1 is leased until its acknowledgement: the round this kick runs claims nothing, and acknowledges now.
    source.write('S1', [second!]);
    relay.kick();
    await vi.waitFor(() => expect(received.map((e) => e.id)).toContain(second!.id), WAIT);
    expect(source.ackCalls).toBe(2);
    await relay.stop();
    expect(await source.countPending()).toBe(0);
  });

  it('claims again at once when an acknowledgement released a record that got an event while it was claimed', async () => {
    const { source, relay, received } = setUp({ pollIntervalMs: 600_000 });
    let openGate = () => {};
    source.ackGate = new Promise<void>((resolve) => (openGate = resolve));
    const [first, second] = events('G1', 2);
    source.write('G1', [first!]);
    relay.start();
    await vi.waitFor(() => expect(source.ackCalls).toBe(1), WAIT);
    // Written while the record is leased: the round this kick runs skips it.
    source.write('G1', [second!]);
    const claims = source.claimsAfterWrites.length;
    relay.kick();
    await vi.waitFor(() => expect(source.claimsAfterWrites.length).toBe(claims + 1), WAIT);
    expect(received.map((e) => e.id)).toEqual([first!.id]);
    source.ackGate = null;
    openGate();
    // No poll for ten minutes and no write: only the acknowledgement's answer brings the second event out.
    await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual([first!.id, second!.id]), WAIT);
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), WAIT);
    await relay.stop();
  });

  it('a round after a kick claims what this process wrote (afterWrites); the first round and polls claim everything', async () => {
    const { source, relay, received } = setUp({ pollIntervalMs: 600_000 });
    relay.start();
    await vi.waitFor(() => expect(relay.stats().lastSuccess).not.toBeNull(), WAIT);
    expect(source.claimsAfterWrites).toEqual([false]);
    const messages = events('W1', 1);
    source.write('W1', messages);
    relay.kick();
    await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual(messages.map((m) => m.id)), WAIT);
    expect(source.claimsAfterWrites).toEqual([false, true]);
    const polled = setUp({ pollIntervalMs: 5 });
    polled.relay.start();
    await vi.waitFor(() => expect(polled.source.claimsAfterWrites.length).toBeGreaterThanOrEqual(3), WAIT);
    expect(polled.source.claimsAfterWrites.every((afterWrites) => !afterWrites)).toBe(true);
  });

  it('kick() delivers without waiting for the next poll', async () => {
    const { source, relay, received } = setUp({ pollIntervalMs: 600_000 });
    relay.start();
    await vi.waitFor(() => expect(relay.stats().lastSuccess).not.toBeNull(), WAIT);
    const messages = events('K1', 2);
    source.write('K1', messages);
    relay.kick();
    await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual(messages.map((m) => m.id)), WAIT);
  });

  it('kicks of a burst of writes cut the pause short once, without building an AbortError each', async () => {
    const { source, relay, received } = setUp({ pollIntervalMs: 600_000 });
    relay.start();
    await vi.waitFor(() => expect(relay.stats().lastSuccess).not.toBeNull(), WAIT);
    const abort = vi.spyOn(AbortController.prototype, 'abort');
    try {
      const messages = events('K2', 1);
      source.write('K2', messages);
      for (let i = 0; i < 10; i++) relay.kick();
      // One abort for the ten kicks, with a reason (abort() without one builds a DOMException).
      expect(abort).toHaveBeenCalledTimes(1);
      expect(abort.mock.calls[0]![0]).toBeDefined();
      await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual(messages.map((m) => m.id)), WAIT);
    } finally {
      abort.mockRestore();
    }
  });

  it('keeps events while the bus is down and delivers all of them, in order, when it recovers', async () => {
    const { source, bus, relay, errors, received } = setUp();
    bus.down = true;
    const written = new Map(['D1', 'D2', 'D3'].map((id) => [id, events(id, 4)]));
    for (const [id, messages] of written) source.write(id, messages);
    relay.start();
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(3), WAIT);
    expect(errors.every((e) => e instanceof BusUnavailableError)).toBe(true);
    expect(relay.stats().lastError).toBe('bus down (test)');
    expect(received).toEqual([]);
    expect(source.acks).toEqual([]);
    expect(source.pendingIds()).toHaveLength(12);

    bus.down = false;
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), WAIT);
    const seen = idsByRecord(received);
    for (const [id, messages] of written) expect(seen.get(id)).toEqual(messages.map((m) => m.id));
    expect(received).toHaveLength(12);
  });

  it('stops a record at its first failed event, acknowledging only what was published, and keeps order', async () => {
    const { source, bus, relay, received } = setUp();
    const messages = events('F1', 4);
    bus.failOnId = messages[2]!.id;
    source.write('F1', messages);
    relay.start();
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), WAIT);
    expect(source.acks[0]).toEqual({ id: 'F1', messageIds: [messages[0]!.id, messages[1]!.id] });
    expect(source.acks[1]).toEqual({ id: 'F1', messageIds: [messages[2]!.id, messages[3]!.id] });
    expect(received.map((e) => e.id)).toEqual(messages.map((m) => m.id));
  });

  it('acknowledges only after the bus took the event', async () => {
    const { source, bus, relay, received } = setUp();
    const messages = events('A1', 1);
    bus.hold();
    source.write('A1', messages);
    relay.start();
    await vi.waitFor(() => expect(bus.heldCount()).toBe(1), WAIT);
    expect(source.acks).toEqual([]);
    expect(source.pendingIds()).toEqual([messages[0]!.id]);
    bus.release();
    await vi.waitFor(() => expect(source.acks).toEqual([{ id: 'A1', messageIds: [messages[0]!.id] }]), WAIT);
    expect(received.map((e) => e.id)).toEqual([messages[0]!.id]);
  });

  it('publishes again when the acknowledgement is lost (at least once, same id)', async () => {
    const { source, relay, errors, received } = setUp();
    source.failAcks = 1;
    const messages = events('L1', 2);
    source.write('L1', messages);
    relay.start();
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), { ...WAIT, timeout: 15_000 });
    expect(errors.map((e) => (e as Error).message)).toContain('store down (ack)');
    const ids = messages.map((m) => m.id);
    expect(received.map((e) => e.id)).toEqual([...ids, ...ids]);
    expect(relay.stats().published).toBe(4);
  });

  it('survives a failing store and carries on', async () => {
    const { source, relay, errors, received } = setUp();
    source.failClaims = 3;
    const messages = events('S1', 2);
    source.write('S1', messages);
    relay.start();
    await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual(messages.map((m) => m.id)), WAIT);
    expect(errors.map((e) => (e as Error).message)).toEqual(Array(3).fill('store down (claim)'));
  });

  it('stop() waits for the current round and is idempotent', async () => {
    const { source, bus, relay } = setUp();
    const messages = events('P1', 2);
    bus.hold();
    source.write('P1', messages);
    relay.start();
    await vi.waitFor(() => expect(bus.heldCount()).toBe(1), WAIT);
    let stopped = false;
    const stopping = relay.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    bus.release();
    await stopping;
    await relay.stop();
    // The held event was published and acknowledged; the second one stays for the next relay.
    expect(source.acks).toEqual([{ id: 'P1', messageIds: [messages[0]!.id] }]);
    expect(source.pendingIds()).toEqual([messages[1]!.id]);
    relay.kick();
    relay.start();
    expect(await relay.countPending()).toBe(1);
  });

  it('leaves records to their lease when the outage outlasts it, then claims them again (no loss, no duplicate)', async () => {
    const { source, bus, relay, errors, received } = setUp({ leaseMs: 100 });
    source.releaseOnAck = false;
    bus.down = true;
    const written = new Map(['E1', 'E2'].map((id) => [id, events(id, 3)]));
    for (const [id, messages] of written) source.write(id, messages);
    relay.start();
    // Backoff is capped at 40 ms, so ten failures span several 100 ms leases.
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(10), WAIT);
    bus.down = false;
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), WAIT);
    const seen = idsByRecord(received);
    for (const [id, messages] of written) expect(seen.get(id)).toEqual(messages.map((m) => m.id));
    expect(received).toHaveLength(6);
  });

  it('delivers events written after a record was relayed, also when the store keeps the claim', async () => {
    const { source, relay, received } = setUp({ leaseMs: 200 });
    source.releaseOnAck = false;
    const first = events('W1', 1);
    source.write('W1', first);
    relay.start();
    await vi.waitFor(() => expect(received).toHaveLength(1), WAIT);
    const second = events('W1', 2);
    source.write('W1', second);
    relay.kick();
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), WAIT);
    expect(received.map((e) => e.id)).toEqual([...first, ...second].map((m) => m.id));
  });

  it('a message the bus refuses holds back only its own record', async () => {
    const { source, bus, relay, errors, received } = setUp();
    const bad = events('X1', 2);
    const good = events('X2', 2);
    bus.poison.add(bad[0]!.id);
    source.write('X1', bad);
    source.write('X2', good);
    relay.start();
    await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual(good.map((m) => m.id)), WAIT);
    await vi.waitFor(() => expect(errors.some((e) => e instanceof TypeError)).toBe(true), WAIT);
    expect(source.pendingIds()).toEqual(bad.map((m) => m.id));
    expect(await relay.countPending()).toBe(1);
  });

  it('reports the age of the oldest event the bus has not taken: it grows while the bus is down, 0 after', async () => {
    // Only Date is faked (the relay's pauses run on real timers); a long lease keeps the claim throughout.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const written = Date.parse('2030-01-01T12:00:00Z');
      vi.setSystemTime(written);
      const { source, bus, relay, errors } = setUp({ leaseMs: 600_000 });
      expect(relay.oldestPendingAgeSeconds()).toBe(0);
      bus.down = true;
      source.write('G1', events('G1', 2));
      relay.start();
      await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(1), WAIT);
      // (The faked clock still moves with real time between two settings: whole seconds are compared.)
      expect(relay.oldestPendingAgeSeconds()).toBeCloseTo(0, 0);

      vi.setSystemTime(written + 42_000);
      expect(relay.oldestPendingAgeSeconds()).toBeCloseTo(42, 0);
      source.write('G2', events('G2', 1));
      vi.setSystemTime(written + 90_000);
      await vi.waitFor(() => expect(source.records.get('G2')!.leasedUntil).toBeGreaterThan(0), WAIT);
      // G2 is younger: the oldest is still G1's first event.
      expect(relay.oldestPendingAgeSeconds()).toBeCloseTo(90, 0);

      bus.down = false;
      await vi.waitFor(async () => {
        expect(await relay.countPending()).toBe(0);
        expect(relay.oldestPendingAgeSeconds()).toBe(0);
      }, WAIT);
    } finally {
      vi.useRealTimers();
    }
  });
});
