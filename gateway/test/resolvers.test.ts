import { parse, subscribe, type ExecutionResult } from 'graphql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { buildEvent, createMemoryBus, natsSubject, type EventBus } from '@coperto/bus';
import { createSocketBudget } from '../src/subscriptions/socket-budget.js';
import type { SubscriptionContext } from '../src/subscriptions/subscription-context.js';
import { createSubscriptionSchema } from '../src/subscriptions/subscription-schema.js';
import { countingBus, type CountingBus } from './support/counting-bus.js';
import { prenotazioneEvent, tableStatusEvent } from './support/events.js';

const TABLES = `subscription ($salaId: ID) {
  tableStatusChanged(salaId: $salaId) {
    id type time subject
    data { id name nome seats status stato previousStatus salaId roomId attivo lock { deviceId } createdAt }
  }
}`;

const WAITLIST = `subscription { waitlistChanged { id type subject data { id customerName covers state tableIds } } }`;

type Stream = AsyncGenerator<ExecutionResult<any>>;

describe('subscription resolvers', () => {
  let memory: EventBus;
  let counting: CountingBus;
  const open: Stream[] = [];

  beforeEach(() => {
    memory = createMemoryBus();
    counting = countingBus(memory);
  });
  afterEach(async () => {
    for (const stream of open.splice(0)) await stream.return(undefined);
    await memory.close();
  });

  const contextFor = (tenantId: string): SubscriptionContext => ({ tenantId, fellBehind: () => {} });

  const start = async (tenantId: string, query: string, variables: Record<string, unknown> = {}) => {
    const result = await subscribe({
      schema: createSubscriptionSchema({ bus: counting.bus }),
      document: parse(query),
      variableValues: variables,
      contextValue: contextFor(tenantId),
    });
    if (!(Symbol.asyncIterator in result)) throw new Error(`not a stream: ${JSON.stringify(result)}`);
    const stream = result as Stream;
    open.push(stream);
    return stream;
  };

  const publish = async (message: { subject: string; event: Parameters<EventBus['publish']>[1] }) =>
    memory.publish(message.subject, message.event);

  it('yields the event envelope with the whole table and its previous status', async () => {
    const stream = await start('t_alpha', TABLES);
    const sent = tableStatusEvent('t_alpha', {
      id: 'tav1',
      salaId: 's1',
      status: 'dirty',
      previousStatus: 'occupied',
    });
    await publish(sent);

    const { value } = await stream.next();
    expect(value.errors).toBeUndefined();
    expect(value.data.tableStatusChanged).toEqual({
      id: sent.event.id,
      type: 'tables.status',
      time: sent.event.time,
      subject: 'tav1',
      data: {
        id: 'tav1',
        name: 'T-tav1',
        nome: 'T-tav1',
        seats: 4,
        status: 'dirty',
        stato: 'dirty',
        previousStatus: 'occupied',
        salaId: 's1',
        roomId: 's1',
        attivo: true,
        lock: null,
        createdAt: '2026-01-01T10:00:00.000Z',
      },
    });
  });

  it('with salaId, yields only the tables of that room', async () => {
    const stream = await start('t_alpha', TABLES, { salaId: 's1' });
    await publish(tableStatusEvent('t_alpha', { id: 'other-room', salaId: 's2' }));
    await publish(tableStatusEvent('t_alpha', { id: 'no-room', salaId: null }));
    await publish(tableStatusEvent('t_alpha', { id: 'this-room', salaId: 's1' }));

    const { value } = await stream.next();
    expect(value.data.tableStatusChanged.subject).toBe('this-room');
  });

  it('without salaId, yields every table of the tenant', async () => {
    const stream = await start('t_alpha', TABLES);
    await publish(tableStatusEvent('t_alpha', { id: 'a', salaId: 's2' }));
    await publish(tableStatusEvent('t_alpha', { id: 'b', salaId: null }));

    const subjects = [(await stream.next()).value, (await stream.next()).value].map(
      (v) => v.data.tableStatusChanged.subject,
    );
    expect(subjects).toEqual(['a', 'b']);
  });

  it("follows only the subject of the viewer's tenant, and drops an envelope of another tenant", async () => {
    const stream = await start('t_alpha', TABLES);
    expect(counting.open(natsSubject('t_alpha', 'tables.status'))).toBe(1);
    expect(counting.open(natsSubject('t_beta', 'tables.status'))).toBe(0);

    await publish(tableStatusEvent('t_beta', { id: 'beta-table' }));
    // An envelope claiming another tenant on alpha's subject is not delivered either.
    const forged = tableStatusEvent('t_beta', { id: 'forged' });
    await memory.publish(natsSubject('t_alpha', 'tables.status'), forged.event);
    await publish(tableStatusEvent('t_alpha', { id: 'alpha-table' }));

    expect((await stream.next()).value.data.tableStatusChanged.subject).toBe('alpha-table');
  });

  it.each([
    ['bookingCreated', 'bookings.created', 'pending'],
    ['bookingUpdated', 'bookings.updated', 'confermata'],
    ['bookingCancelled', 'bookings.cancelled', 'annullata'],
  ] as const)('%s yields %s events with the booking', async (field, type, state) => {
    const stream = await start(
      't_alpha',
      `subscription { ${field} { id type subject data { id codice covers numeroPersone state tableIds startsAt } } }`,
    );
    const others = (['bookings.created', 'bookings.updated', 'bookings.cancelled'] as const).filter(
      (t) => t !== type,
    );
    for (const other of others) await publish(prenotazioneEvent('t_alpha', other, { id: `not-${other}` }));
    const sent = prenotazioneEvent('t_alpha', type, { id: 'pren1', state });
    await publish(sent);

    const { value } = await stream.next();
    expect(value.data[field]).toEqual({
      id: sent.event.id,
      type,
      subject: 'pren1',
      data: {
        id: 'pren1',
        codice: 'ABC234',
        covers: 2,
        numeroPersone: 2,
        state,
        tableIds: [],
        startsAt: '2026-03-01T19:00:00.000Z',
      },
    });
  });

  it('releases the bus subscription when the client completes, also while no event is coming', async () => {
    const stream = await start('t_alpha', TABLES);
    const subject = natsSubject('t_alpha', 'tables.status');
    expect(counting.open(subject)).toBe(1);
    const waiting = stream.next();
    await stream.return(undefined);
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(counting.open(subject)).toBe(0);
  });

  it('waitlistChanged yields every waitlist change of the tenant from the one waitlist.updated subject', async () => {
    const stream = await start('t_alpha', WAITLIST);
    const change = (tenantId: string, type: 'waitlist.added' | 'waitlist.seated', state: string) => {
      const { event, message } = buildEvent({
        tenantId: trustedTenantId(tenantId),
        type,
        source: 'coperto/prenotazione',
        subject: 'w1',
        data: {
          id: 'w1',
          customerName: 'Rossi',
          covers: 3,
          state,
          tableIds: state === 'seated' ? ['T1'] : [],
        },
      });
      return { subject: message.subject, event };
    };
    await publish(change('t_beta', 'waitlist.added', 'waiting')); // another tenant's: never delivered
    await publish(change('t_alpha', 'waitlist.added', 'waiting'));
    await publish(change('t_alpha', 'waitlist.seated', 'seated'));
    const first = (await stream.next()).value.data.waitlistChanged;
    const second = (await stream.next()).value.data.waitlistChanged;
    expect([first.type, first.data.state, first.data.tableIds]).toEqual(['waitlist.added', 'waiting', []]);
    expect([second.type, second.data.state, second.data.tableIds]).toEqual([
      'waitlist.seated',
      'seated',
      ['T1'],
    ]);
    expect(counting.open(natsSubject('t_alpha', 'waitlist.updated'))).toBe(1);
  });
});
