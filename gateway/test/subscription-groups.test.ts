import { execute, parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBus, natsSubject, type EventBus } from '@coperto/bus';
import {
  createSubscriptionGroups,
  type GroupSubscriber,
  type Membership,
  type SubscriptionGroups,
} from '../src/subscriptions/subscription-groups.js';
import { createSubscriptionSchema } from '../src/subscriptions/subscription-schema.js';
import { countingBus, type CountingBus } from './support/counting-bus.js';
import { tableStatusEvent } from './support/events.js';

const TABLES = parse(`subscription ($salaId: ID) {
  tableStatusChanged(salaId: $salaId) { subject data { id status salaId } }
}`);

/** A subscriber that records the payloads it was given. */
function recorder() {
  const payloads: string[] = [];
  const stops = new Set<() => void>();
  const fellBehind = vi.fn();
  const subscriber: GroupSubscriber = {
    deliver: (payload) => payloads.push(payload),
    fellBehind,
    track(stop) {
      stops.add(stop);
      return () => stops.delete(stop);
    },
  };
  return {
    subscriber,
    payloads,
    fellBehind,
    /** What the socket's budget does when the socket closes. */
    closeSocket: () => [...stops].forEach((stop) => stop()),
    subjects: () => payloads.map((p) => JSON.parse(p).data.tableStatusChanged.subject as string),
  };
}

describe('subscription groups', () => {
  let memory: EventBus;
  let counting: CountingBus;
  let executions: ReturnType<typeof vi.fn>;
  let groups: SubscriptionGroups;

  beforeEach(() => {
    memory = createMemoryBus();
    counting = countingBus(memory);
    executions = vi.fn((args: ExecutionArgs) => execute(args));
    groups = createSubscriptionGroups({
      schema: createSubscriptionSchema({ bus: counting.bus }),
      execute: executions as (args: ExecutionArgs) => ExecutionResult,
    });
  });
  afterEach(async () => {
    await memory.close();
  });

  const join = async (
    tenantId: string,
    subscriber: GroupSubscriber,
    variables: Record<string, unknown> = {},
  ) => {
    const joined = await groups.join({ tenantId, document: TABLES, variableValues: variables }, subscriber);
    if (!(Symbol.asyncIterator in joined)) throw new Error(`refused: ${JSON.stringify(joined)}`);
    return joined as Membership;
  };
  const publish = (tenantId: string, id: string, salaId: string | null = null) => {
    const { subject, event } = tableStatusEvent(tenantId, { id, salaId });
    return memory.publish(subject, event);
  };

  it.each([1, 50])(
    'executes the selection once per event for %i subscribers, and all get the same payload',
    async (n) => {
      const members = Array.from({ length: n }, recorder);
      for (const m of members) await join('t_alpha', m.subscriber);
      expect(groups.size).toBe(1);
      expect(counting.open(natsSubject('t_alpha', 'tables.status'))).toBe(1);

      for (const id of ['e1', 'e2', 'e3']) await publish('t_alpha', id);
      await vi.waitFor(() => expect(members.every((m) => m.payloads.length === 3)).toBe(true));

      expect(executions).toHaveBeenCalledTimes(3);
      for (const m of members) expect(m.subjects()).toEqual(['e1', 'e2', 'e3']);
      expect(new Set(members.flatMap((m) => m.payloads)).size).toBe(3);
    },
  );

  it('gives different variables and different tenants separate groups, each with only its events', async () => {
    const alphaAll = recorder();
    const alphaRoom = recorder();
    const beta = recorder();
    await join('t_alpha', alphaAll.subscriber);
    await join('t_alpha', alphaRoom.subscriber, { salaId: 'r1' });
    await join('t_beta', beta.subscriber);
    expect(groups.size).toBe(3);

    await publish('t_alpha', 'a-r2', 'r2');
    await publish('t_beta', 'b-r1', 'r1');
    await publish('t_alpha', 'a-r1', 'r1');
    await vi.waitFor(() => expect(alphaAll.payloads).toHaveLength(2));
    await vi.waitFor(() => expect(alphaRoom.payloads).toHaveLength(1));
    await vi.waitFor(() => expect(beta.payloads).toHaveLength(1));

    expect(alphaAll.subjects()).toEqual(['a-r2', 'a-r1']);
    expect(alphaRoom.subjects()).toEqual(['a-r1']);
    expect(beta.subjects()).toEqual(['b-r1']);
    // Nothing else arrives: the later events of beta and alpha would have followed.
    await publish('t_beta', 'b-last');
    await vi.waitFor(() => expect(beta.payloads).toHaveLength(2));
    expect(alphaRoom.payloads).toHaveLength(1);
  });

  it('keeps serving the others when a member leaves; the last one leaving releases the bus subscription', async () => {
    const subject = natsSubject('t_alpha', 'tables.status');
    const [a, b, c] = [recorder(), recorder(), recorder()];
    const memberA = await join('t_alpha', a.subscriber);
    await join('t_alpha', b.subscriber);
    const memberC = await join('t_alpha', c.subscriber);
    const waitingA = memberA.next();

    await memberA.return(); // the client completed
    expect(await waitingA).toEqual({ done: true, value: undefined });
    b.closeSocket(); // the socket closed
    expect(groups.members).toBe(1);
    await publish('t_alpha', 'after');
    await vi.waitFor(() => expect(c.subjects()).toEqual(['after']));
    expect(a.payloads).toEqual([]);
    expect(b.payloads).toEqual([]);
    expect(counting.open(subject)).toBe(1);

    const waitingC = memberC.next();
    await memberC.return();
    expect(await waitingC).toEqual({ done: true, value: undefined });
    expect(groups.size).toBe(0);
    expect(groups.members).toBe(0);
    expect(counting.open(subject)).toBe(0);

    // A new subscriber opens a new group.
    const d = recorder();
    await join('t_alpha', d.subscriber);
    expect(counting.open(subject)).toBe(1);
  });

  it('a subscriber whose delivery throws leaves the group; the others keep receiving', async () => {
    const [healthy, broken] = [recorder(), recorder()];
    await join('t_alpha', healthy.subscriber);
    const brokenMember = await join('t_alpha', {
      ...broken.subscriber,
      deliver: () => {
        throw new Error('socket gone');
      },
    });
    await publish('t_alpha', 'first');
    await publish('t_alpha', 'second');
    await vi.waitFor(() => expect(healthy.subjects()).toEqual(['first', 'second']));
    expect(await brokenMember.next()).toEqual({ done: true, value: undefined });
    expect(groups.members).toBe(1);
  });

  it('refuses bad variables with the errors result and keeps no group', async () => {
    const joined = await groups.join(
      { tenantId: 't_alpha', document: TABLES, variableValues: { salaId: { not: 'an id' } } },
      recorder().subscriber,
    );
    expect(joined).toEqual({
      errors: [expect.objectContaining({ message: expect.stringContaining('salaId') })],
    });
    expect(groups.size).toBe(0);
    expect(groups.members).toBe(0);
    expect(counting.open(natsSubject('t_alpha', 'tables.status'))).toBe(0);
  });

  it('a group that falls behind the bus tells every member, and its memberships end', async () => {
    const slowGroups = createSubscriptionGroups({
      schema: createSubscriptionSchema({ bus: counting.bus, busMaxPending: 2 }),
    });
    const [a, b] = [recorder(), recorder()];
    const request = { tenantId: 't_slow', document: TABLES, variableValues: {} };
    const memberA = (await slowGroups.join(request, a.subscriber)) as Membership;
    await slowGroups.join(request, b.subscriber);
    // Published in one go, before the group's executor gets a turn: more than 2 wait unread.
    await Promise.all(['1', '2', '3', '4'].map((id) => publish('t_slow', id)));
    expect(a.fellBehind).toHaveBeenCalledTimes(1);
    expect(b.fellBehind).toHaveBeenCalledTimes(1);
    expect(await memberA.next()).toEqual({ done: true, value: undefined });
    expect(slowGroups.size).toBe(0);
    expect(counting.open(natsSubject('t_slow', 'tables.status'))).toBe(0);
  });
});
