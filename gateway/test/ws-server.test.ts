import { execute, type ExecutionArgs } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { natsSubject } from '@coperto/bus';
import { bearer, mintRawToken, mintToken, newTenantId, unsignedToken } from '@coperto/testkit';
import { SubscriptionCloseCode } from '../src/subscriptions/close-codes.js';
import { tableStatusEvent } from './support/events.js';
import { startSubscriptionHarness, type SubscriptionHarness } from './support/subscription-harness.js';
import { collect, graphqlWsClient, rawSubscriber, until } from './support/ws-clients.js';

const TABLES = `subscription ($salaId: ID) {
  tableStatusChanged(salaId: $salaId) { id subject data { id status previousStatus salaId } }
}`;

describe('subscription server (graphql-ws over a MemoryBus)', () => {
  let harness: SubscriptionHarness | undefined;
  const cleanups: Array<() => unknown> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await harness?.close();
    harness = undefined;
  });

  const start = async (options: Parameters<typeof startSubscriptionHarness>[0] = {}) => {
    harness = await startSubscriptionHarness(options);
    return harness;
  };
  const client = (h: SubscriptionHarness, authorization?: string) => {
    const c = graphqlWsClient(h.url, authorization);
    cleanups.push(() => c.dispose());
    return c;
  };
  const publish = (h: SubscriptionHarness, message: ReturnType<typeof tableStatusEvent>) =>
    h.bus.bus.publish(message.subject, message.event);

  it("delivers the tenant's events to its subscribers, filtered by salaId, and nothing of another tenant", async () => {
    const h = await start();
    const [alpha, beta] = [newTenantId(), newTenantId()];
    const all = collect(client(h, bearer(await mintToken({ tenantId: alpha }))), TABLES);
    const room = collect(client(h, bearer(await mintToken({ tenantId: alpha }))), TABLES, { salaId: 'r1' });
    const betas = collect(client(h, bearer(await mintToken({ tenantId: beta }))), TABLES);
    await until(() => h.bus.open(natsSubject(alpha, 'tables.status')) === 2, 'alpha subscriptions');
    await until(() => h.bus.open(natsSubject(beta, 'tables.status')) === 1, 'beta subscription');

    await publish(
      h,
      tableStatusEvent(alpha, { id: 'a1', salaId: 'r2', status: 'occupied', previousStatus: 'free' }),
    );
    await publish(h, tableStatusEvent(beta, { id: 'b1', salaId: 'r1' }));
    await publish(
      h,
      tableStatusEvent(alpha, { id: 'a2', salaId: 'r1', status: 'dirty', previousStatus: 'open' }),
    );

    expect((await all.waitFor(2)).map((e) => e.tableStatusChanged.subject)).toEqual(['a1', 'a2']);
    expect((await room.waitFor(1)).map((e) => e.tableStatusChanged.data)).toEqual([
      { id: 'a2', status: 'dirty', previousStatus: 'open', salaId: 'r1' },
    ]);
    expect((await betas.waitFor(1)).map((e) => e.tableStatusChanged.subject)).toEqual(['b1']);
    // Each saw everything it should: the later arrivals prove nothing else was in flight before them.
    expect(all.items).toHaveLength(2);
    expect(room.items).toHaveLength(1);
  });

  it.each([1, 50])(
    'executes each event once for %i sockets of one tenant and document, and every socket gets it',
    async (sockets) => {
      const executions = vi.fn((args: ExecutionArgs) => execute(args));
      const h = await start({ execute: executions });
      const tenant = newTenantId();
      const token = bearer(await mintToken({ tenantId: tenant }));
      const received = Array.from({ length: sockets }, () => collect(client(h, token), TABLES));
      await until(() => h.server.groups().members === sockets, 'every subscription');
      expect(h.server.groups().groups).toBe(1);

      for (const id of ['e1', 'e2']) await publish(h, tableStatusEvent(tenant, { id }));
      for (const r of received) {
        expect((await r.waitFor(2)).map((e) => e.tableStatusChanged.subject)).toEqual(['e1', 'e2']);
      }
      expect(executions).toHaveBeenCalledTimes(2);
    },
  );

  it.each([
    ['no connection params', undefined],
    ['an empty authorization', ''],
    ['a token without Bearer', 'just-a-token'],
    ['a malformed token', bearer('abc.def')],
    ['an unsigned token', bearer(unsignedToken({ tenantId: 't_x', exp: 4_000_000_000 }))],
    ['a token signed with another secret', 'wrong-secret'],
    ['an expired token', 'expired'],
  ])('closes the socket with 4403 Forbidden for %s', async (_what, authorization) => {
    const h = await start();
    let header = authorization;
    if (authorization === 'wrong-secret') {
      header = bearer(
        await mintToken({ tenantId: 't_x', secret: 'another-secret-that-is-long-enough-for-hs256!' }),
      );
    } else if (authorization === 'expired') {
      header = bearer(await mintToken({ tenantId: 't_x', expiresIn: -3600 }));
    }
    const c = client(h, header);
    const received = collect(c, TABLES);
    expect(await c.closed).toEqual({ code: SubscriptionCloseCode.Forbidden, reason: 'Forbidden' });
    expect(await received.failed).toMatchObject({ code: 4403 });
    expect(h.bus.open(natsSubject('t_x', 'tables.status'))).toBe(0);
  });

  it('closes the socket with 4403 when the token expires while it is open, releasing its subscriptions', async () => {
    const h = await start();
    const tenant = newTenantId();
    const c = client(
      h,
      bearer(await mintRawToken({ tenantId: tenant, exp: Math.floor(Date.now() / 1000) + 2 })),
    );
    const received = collect(c, TABLES);
    await until(() => h.bus.open(natsSubject(tenant, 'tables.status')) === 1, 'subscription');
    await publish(h, tableStatusEvent(tenant, { id: 'before-expiry' }));
    expect(await received.waitFor(1)).toHaveLength(1);

    expect(await c.closed).toEqual({ code: 4403, reason: 'Forbidden: token expired' });
    await until(() => h.bus.open(natsSubject(tenant, 'tables.status')) === 0, 'released subscription');
  });

  it('disconnects a client that stops reading with 4429, releases what it held, and keeps serving the others', async () => {
    const h = await start({ limits: { maxPendingEvents: 50, maxBufferedBytes: 64 * 1024 * 1024 } });
    const [slowTenant, healthyTenant] = [newTenantId(), newTenantId()];
    const slow = await rawSubscriber(h.url, bearer(await mintToken({ tenantId: slowTenant })));
    cleanups.push(() => slow.terminate());
    slow.subscribe('1', `subscription { tableStatusChanged { data { nome } } }`);
    const healthy = collect(client(h, bearer(await mintToken({ tenantId: healthyTenant }))), TABLES);
    const slowSubject = natsSubject(slowTenant, 'tables.status');
    await until(() => h.bus.open(slowSubject) === 1, 'slow subscription');
    await until(() => h.bus.open(natsSubject(healthyTenant, 'tables.status')) === 1, 'healthy subscription');

    slow.pause();
    // 64 KiB per event: the kernel buffers fill after some tens of events, then the 50 pending ones pile up.
    const nome = 'x'.repeat(64 * 1024);
    let sent = 0;
    while (h.bus.open(slowSubject) > 0) {
      if (sent >= 5000) throw new Error('the slow client was never disconnected');
      await publish(h, tableStatusEvent(slowTenant, { id: `slow-${sent}`, nome }));
      await publish(h, tableStatusEvent(healthyTenant, { id: `ok-${sent}` }));
      sent++;
      await new Promise((r) => setImmediate(r));
    }
    // Nothing is kept for the slow socket any more: later events are not even received from the bus.
    for (let i = 0; i < 100; i++) await publish(h, tableStatusEvent(slowTenant, { id: `after-${i}`, nome }));
    expect(h.bus.open(slowSubject)).toBe(0);

    slow.resume();
    expect(await slow.closed).toEqual({ code: 4429, reason: 'Too many pending events' });
    expect(slow.nextCount).toBeLessThan(sent);
    expect((await healthy.waitFor(sent)).length).toBe(sent);
  });

  it('cuts a slow socket out of a group it shares with a healthy one (4429); the group keeps serving the healthy one', async () => {
    const h = await start({ limits: { maxPendingEvents: 50, maxBufferedBytes: 64 * 1024 * 1024 } });
    const tenant = newTenantId();
    const token = bearer(await mintToken({ tenantId: tenant }));
    const DOCUMENT = `subscription { tableStatusChanged { subject data { nome } } }`;
    const slow = await rawSubscriber(h.url, token);
    cleanups.push(() => slow.terminate());
    slow.subscribe('1', DOCUMENT);
    const healthy = collect(client(h, token), DOCUMENT);
    await until(() => h.server.groups().members === 2, 'both subscriptions');
    expect(h.server.groups().groups).toBe(1);

    slow.pause();
    const nome = 'x'.repeat(64 * 1024);
    let sent = 0;
    while (h.server.groups().members > 1) {
      if (sent >= 5000) throw new Error('the slow client was never disconnected');
      await publish(h, tableStatusEvent(tenant, { id: `e-${sent}`, nome }));
      sent++;
      // The healthy client reads as it goes (as a live screen does).
      await healthy.waitFor(sent);
    }
    expect(h.server.groups()).toEqual({ groups: 1, members: 1 });
    expect(h.bus.open(natsSubject(tenant, 'tables.status'))).toBe(1);

    await publish(h, tableStatusEvent(tenant, { id: 'after', nome: 'n' }));
    expect((await healthy.waitFor(sent + 1)).map((e) => e.tableStatusChanged.subject).at(-1)).toBe('after');
    expect(healthy.items).toHaveLength(sent + 1);
    slow.resume();
    expect(await slow.closed).toEqual({ code: 4429, reason: 'Too many pending events' });
    expect(slow.nextCount).toBeLessThan(sent);
  });

  it('refuses a subscription past maxSubscriptions on one socket with an error, keeping the others', async () => {
    const h = await start({ limits: { maxSubscriptions: 2 } });
    const tenant = newTenantId();
    const c = client(h, bearer(await mintToken({ tenantId: tenant })));
    const first = collect(c, TABLES);
    const second = collect(c, TABLES);
    // Same tenant, document and variables: one group of two members, one bus subscription.
    await until(() => h.server.groups().members === 2, 'two subscriptions');
    expect(h.bus.open(natsSubject(tenant, 'tables.status'))).toBe(1);
    const third = collect(c, TABLES);
    expect(await third.failed).toEqual([
      expect.objectContaining({ message: 'At most 2 subscriptions per connection' }),
    ]);

    await publish(h, tableStatusEvent(tenant, { id: 't1' }));
    expect(await first.waitFor(1)).toHaveLength(1);
    expect(await second.waitFor(1)).toHaveLength(1);
  });

  it('refuses introspection unless enabled', async () => {
    const off = await start();
    const token = bearer(await mintToken({ tenantId: newTenantId() }));
    const refused = collect(client(off, token), '{ __schema { queryType { name } } }');
    expect(await refused.failed).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('introspection has been disabled') }),
    );
    await off.close();

    const on = await start({ introspection: true });
    const allowed = collect(client(on, token), '{ __schema { subscriptionType { name } } }');
    expect(await allowed.waitFor(1)).toEqual([{ __schema: { subscriptionType: { name: 'Subscription' } } }]);
  });

  it('close() sends 1001 to every client, cuts the ones that do not answer, and releases everything', async () => {
    const h = await start();
    const tenant = newTenantId();
    const token = bearer(await mintToken({ tenantId: tenant }));
    const c = client(h, token);
    collect(c, TABLES);
    const stuck = await rawSubscriber(h.url, token);
    stuck.subscribe('1', TABLES, { salaId: 'r1' });
    await until(() => h.bus.open(natsSubject(tenant, 'tables.status')) === 2, 'subscriptions');
    stuck.pause();

    await h.server.close();
    expect(await c.closed).toEqual({ code: SubscriptionCloseCode.GoingAway, reason: 'Going away' });
    expect(h.server.connections()).toBe(0);
    expect(h.bus.open(natsSubject(tenant, 'tables.status'))).toBe(0);
    expect(h.server.groups()).toEqual({ groups: 0, members: 0 });
    stuck.terminate();
  });
});
