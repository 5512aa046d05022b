// Subscriptions that resume with `after`: the replay from the source bus's store, the seam with the live
// events of the group, the refusals. The source is a MemoryBus with its replay log (embedded mode's) behind
// the gateway's real event feed; NATS's replay reading is the bus contract's (packages/bus).
import { execute, parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBus, type EventBus } from '@coperto/bus';
import { createLogger } from '@coperto/server-kit';
import { startEventFeed, type EventFeed } from '../src/subscriptions/event-feed.js';
import { replayerOf } from '../src/subscriptions/replay-bounds.js';
import {
  createSubscriptionGroups,
  type GroupSubscriber,
  type Membership,
  type SubscriptionGroups,
} from '../src/subscriptions/subscription-groups.js';
import { createSubscriptionSchema } from '../src/subscriptions/subscription-schema.js';
import { tableStatusEvent } from './support/events.js';

const TABLES = parse(`subscription ($salaId: ID, $after: ID) {
  tableStatusChanged(salaId: $salaId, after: $after) { id subject data { id salaId } }
}`);

function recorder() {
  const payloads: string[] = [];
  const subscriber: GroupSubscriber = {
    deliver: (payload) => payloads.push(payload),
    fellBehind: vi.fn(),
    track: () => () => {},
  };
  return { subscriber, subjects: () => payloads.map((p) => JSON.parse(p).data.tableStatusChanged.subject) };
}

const eventually = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('resuming subscriptions (after)', () => {
  let source: EventBus;
  let feed: EventFeed;
  let groups: SubscriptionGroups;
  let executions: ReturnType<typeof vi.fn>;

  beforeEach(async () => {
    source = createMemoryBus({ replayLog: { maxEvents: 1000, maxAgeMs: 60_000 } });
    feed = await startEventFeed(source, createLogger({ name: 'test', level: 'silent' }));
    executions = vi.fn((args: ExecutionArgs) => execute(args));
    groups = createSubscriptionGroups({
      schema: createSubscriptionSchema({ bus: feed.bus }),
      execute: executions as (args: ExecutionArgs) => ExecutionResult,
      replay: replayerOf(source, { windowMs: 60_000, maxEvents: 50 }),
    });
  });
  afterEach(async () => {
    await feed.close();
    await source.close();
  });

  /** Publishes a status change of table `id` and returns its event id. */
  const publish = async (tenantId: string, id: string, salaId: string | null = null) => {
    const { subject, event } = tableStatusEvent(tenantId, { id, salaId });
    await source.publish(subject, event);
    return event.id;
  };
  const join = (tenantId: string, subscriber: GroupSubscriber, variables: Record<string, unknown>) =>
    groups.join({ tenantId, document: TABLES, variableValues: variables }, subscriber);
  const joined = async (...args: Parameters<typeof join>) => {
    const result = await join(...args);
    if (!(Symbol.asyncIterator in result)) throw new Error(`refused: ${JSON.stringify(result)}`);
    return result as Membership;
  };
  const refusal = async (...args: Parameters<typeof join>) => {
    const result = await join(...args);
    if (Symbol.asyncIterator in result) throw new Error('not refused');
    return (result as ExecutionResult).errors?.map((e) => ({ message: e.message, ...e.extensions }));
  };

  it('replays what was missed in order, then the live events, each once', async () => {
    const after = await publish('t_a', 'm0');
    for (let i = 1; i <= 3; i++) await publish('t_a', `m${i}`);
    await publish('t_b', 'other-tenant');
    const screen = recorder();
    await joined('t_a', screen.subscriber, { after });
    expect(screen.subjects()).toEqual(['m1', 'm2', 'm3']);
    await publish('t_a', 'live');
    await eventually(() => screen.subjects().length === 4, 'the live event');
    expect(screen.subjects()).toEqual(['m1', 'm2', 'm3', 'live']);
  });

  it('has no gap and no duplicate at the seam while events keep coming', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await publish('t_a', `e${i}`));
    const screen = recorder();
    let joining: Promise<unknown> | undefined;
    for (let i = 30; i < 200; i++) {
      ids.push(await publish('t_a', `e${i}`));
      // Join mid-stream: events still in the feed when the replay reads the log reach it both ways.
      if (i === 60) joining = joined('t_a', screen.subscriber, { after: ids[20] });
      if (i % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    await joining;
    const expected = Array.from({ length: 179 }, (_, i) => `e${i + 21}`);
    await eventually(() => screen.subjects().length >= expected.length, 'every event');
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.subjects()).toEqual(expected);
  });

  it('shares the live group with subscriptions that did not resume: one execution per live event', async () => {
    const after = await publish('t_a', 'first');
    const live = recorder();
    const resumed = recorder();
    await joined('t_a', live.subscriber, {});
    await joined('t_a', resumed.subscriber, { after });
    expect(groups.size).toBe(1);
    executions.mockClear();
    await publish('t_a', 'next');
    await eventually(() => resumed.subjects().includes('next'), 'the live event');
    expect(live.subjects()).toEqual(['next']);
    expect(executions).toHaveBeenCalledTimes(1);
  });

  it("replays only the field's filter: with salaId, that room's tables", async () => {
    const after = await publish('t_a', 'x0', 'r1');
    await publish('t_a', 'x1', 'r2');
    await publish('t_a', 'x2', 'r1');
    const screen = recorder();
    await joined('t_a', screen.subscriber, { salaId: 'r1', after });
    expect(screen.subjects()).toEqual(['x2']);
  });

  it("refuses an id it does not know, another tenant's included, with RELOAD_REQUIRED", async () => {
    const others = await publish('t_b', 'b0');
    await publish('t_a', 'a0');
    for (const after of [others, 'made-up']) {
      const screen = recorder();
      expect(await refusal('t_a', screen.subscriber, { after })).toEqual([
        expect.objectContaining({ code: 'RELOAD_REQUIRED', reason: 'unknown' }),
      ]);
      expect(screen.subjects()).toEqual([]);
    }
    expect(groups.members).toBe(0);
  });

  it('refuses with RELOAD_REQUIRED when more events followed than a replay gives', async () => {
    const after = await publish('t_a', 'start');
    for (let i = 0; i < 51; i++) await publish('t_a', `n${i}`);
    const screen = recorder();
    expect(await refusal('t_a', screen.subscriber, { after })).toEqual([
      expect.objectContaining({ code: 'RELOAD_REQUIRED', reason: 'too-many' }),
    ]);
    expect(screen.subjects()).toEqual([]);
  });

  it('refuses an after that is no ID', async () => {
    expect(await refusal('t_a', recorder().subscriber, { after: { id: 1 } })).toEqual([
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    ]);
  });

  it('takes after as a literal too', async () => {
    const after = await publish('t_a', 'l0');
    await publish('t_a', 'l1');
    const screen = recorder();
    const document = parse(`subscription { tableStatusChanged(after: "${after}") { subject } }`);
    const result = await groups.join({ tenantId: 't_a', document }, screen.subscriber);
    expect(Symbol.asyncIterator in result).toBe(true);
    expect(screen.subjects()).toEqual(['l1']);
  });
});
