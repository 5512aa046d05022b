import { serverUrls, startMongoServer, uniqueName, type TestServer } from '@coperto/testkit';
import { trustedTenantId } from '@coperto/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDocumentStore } from './support/contract.js';
import {
  StoreUnavailableError,
  connectMongoStore,
  type DocumentStore,
  type OutboxMessage,
} from '../src/index.js';

const database = uniqueName('store');

describeDocumentStore('mongo', () => connectMongoStore({ url: serverUrls().mongoUrl, database }));

describe('MongoDB outbox: store commands per relay round', () => {
  it("claims a relay's round of 20 records in two store commands and acknowledges it in one", async () => {
    const commands: string[] = [];
    const store = await connectMongoStore({
      url: serverUrls().mongoUrl,
      database,
      onCommand: (name) => commands.push(name),
    });
    try {
      const collection = uniqueName('acks');
      const coll = store.forTenant(trustedTenantId(uniqueName('t'))).collection<{ id: string }>(collection);
      for (let i = 0; i < 20; i++) {
        await coll.insertOne({ id: `r${i}` }, { events: [outboxEvent(`e${i}`)] });
      }
      const source = store.outbox([collection]);
      commands.length = 0;
      const claimed = await source.claimPending(50, 60_000);
      expect(claimed).toHaveLength(20);
      // Claimed in two commands when no other relay races for them (read the oldest, lease them), and one read of
      // the collection's deleted records' tombstones, of which there are none.
      expect(commands).toEqual(['find', 'update', 'find']);
      commands.length = 0;
      await source.acknowledge(
        claimed.map((pending) => ({ pending, messageIds: [pending.messages[0]!.id] })),
      );
      expect(commands).toEqual(['update']);
      expect(await source.countPending()).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('MongoDB outbox: acknowledgements find their records by _id', () => {
  // mongo-java-server (like any server whose planner uses an index only for a filter of exactly its keys) scans
  // the whole collection for a filter with any other key: one scan per acknowledged record made a booking's
  // store cost grow with the collection (bench/RESULTS.md, scenario 6).
  it('filters every per-record statement on _id alone, and clears the emptied outboxes in one statement', async () => {
    const updates: Array<Readonly<Record<string, unknown>>> = [];
    const store = await connectMongoStore({
      url: serverUrls().mongoUrl,
      database,
      onCommand: (name, command) => {
        if (name === 'update') updates.push(command);
      },
    });
    try {
      const collection = uniqueName('acks');
      const coll = store.forTenant(trustedTenantId(uniqueName('t'))).collection<{ id: string }>(collection);
      for (let i = 0; i < 5; i++) {
        await coll.insertOne({ id: `r${i}` }, { events: [outboxEvent(`e${i}`), outboxEvent(`f${i}`)] });
      }
      const source = store.outbox([collection]);
      const claimed = await source.claimPending(50, 60_000);
      updates.length = 0;
      // Four complete acknowledgements and one partial (it keeps its claim and its other event).
      await source.acknowledge(
        claimed.map((pending, i) => ({
          pending,
          messageIds: pending.messages.slice(0, i === 0 ? 1 : 2).map((message) => message.id),
        })),
      );
      expect(updates).toHaveLength(1);
      const statements = updates[0]!.updates as Array<{ q: Record<string, unknown>; multi?: boolean }>;
      expect(statements).toHaveLength(claimed.length + 1);
      for (const statement of statements.slice(0, -1)) expect(Object.keys(statement.q)).toEqual(['_id']);
      const clear = statements.at(-1)!;
      expect(clear.multi).toBe(true);
      expect((clear.q._id as { $in: unknown[] }).$in).toHaveLength(claimed.length - 1);
      expect(await source.countPending()).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe('MongoDB outbox: a claim after writes reads only what this process wrote', () => {
  it('reads no collection it read a moment ago and nobody wrote to since, and takes what it wrote from its hints', async () => {
    const commands: Array<{ name: string }> = [];
    const store = await connectMongoStore({
      url: serverUrls().mongoUrl,
      database,
      onCommand: (name) => commands.push({ name }),
      outboxQuietReadMs: 60_000, // so that no read is due for time alone while the test runs
    });
    try {
      const [first, second] = [uniqueName('written'), uniqueName('written')];
      const tenant = store.forTenant(trustedTenantId(uniqueName('t')));
      const source = store.outbox([first, second]);
      expect(await source.claimPending(10, 60_000)).toEqual([]); // reads all four (two and their tombstones)
      commands.length = 0;
      expect(await source.claimPending(10, 60_000, { afterWrites: true })).toEqual([]);
      expect(commands).toEqual([]);
      await tenant.collection<{ id: string }>(second).insertOne({ id: 'r' }, { events: [outboxEvent('w1')] });
      commands.length = 0;
      const claimed = await source.claimPending(10, 60_000, { afterWrites: true });
      expect(claimed.map((pending) => [pending.collection, pending.id])).toEqual([[second, 'r']]);
      expect(commands).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe("MongoDB outbox: what this process writes reaches its own relay's claim without a read", () => {
  const connect = (onCommand?: (name: string) => void) =>
    connectMongoStore({
      url: serverUrls().mongoUrl,
      database,
      outboxQuietReadMs: 60_000,
      ...(onCommand ? { onCommand } : {}),
    });

  it('an insert leases its new record for this relay: claimed with no store command, and no other relay takes it', async () => {
    const commands: string[] = [];
    const store = await connect((name) => commands.push(name));
    const other = await connect();
    try {
      const name = uniqueName('hinted');
      const tenantId = trustedTenantId(uniqueName('t'));
      const source = store.outbox([name]);
      await source.claimPending(10, 60_000); // the relay is running: its process's writes hint it from now on
      await store
        .forTenant(tenantId)
        .collection<{ id: string }>(name)
        .insertOne({ id: 'b1' }, { events: [outboxEvent('h1'), outboxEvent('h2')] });
      // Another process's relay finds nothing to claim: the insert leased the record.
      expect(await other.outbox([name]).claimPending(10, 60_000)).toEqual([]);
      commands.length = 0;
      const claimed = await source.claimPending(10, 60_000, { afterWrites: true });
      expect(commands).toEqual([]);
      expect(claimed).toEqual([
        { collection: name, tenantId, id: 'b1', messages: [outboxEvent('h1'), outboxEvent('h2')] },
      ]);
      await source.acknowledge([{ pending: claimed[0]!, messageIds: ['h1', 'h2'] }]);
      expect(await source.countPending()).toBe(0);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it("an update made before the relay took the insert's hint joins it; a later one is read back", async () => {
    const commands: string[] = [];
    const store = await connect((name) => commands.push(name));
    try {
      const name = uniqueName('hinted');
      const tenantId = trustedTenantId(uniqueName('t'));
      const source = store.outbox([name]);
      await source.claimPending(10, 60_000);
      const records = store.forTenant(tenantId).collection<{ id: string; n?: number }>(name);
      await records.insertOne({ id: 'r1' }, { events: [outboxEvent('j1')] });
      const updated = await records.findOneAndUpdate(
        { id: 'r1' },
        { $set: { n: 1 } },
        { events: [outboxEvent('j2')] },
      );
      expect(updated).toEqual({ id: 'r1', n: 1 }); // the outbox the update returned stays inside the store
      commands.length = 0;
      const claimed = await source.claimPending(10, 60_000, { afterWrites: true });
      expect(commands).toEqual([]);
      expect(claimed.map((pending) => pending.messages.map((m) => m.id))).toEqual([['j1', 'j2']]);

      // The hint is taken: an update now is the claim's to read, once this claim is acknowledged.
      await records.findOneAndUpdate({ id: 'r1' }, { $set: { n: 2 } }, { events: [outboxEvent('j3')] });
      await source.acknowledge([{ pending: claimed[0]!, messageIds: ['j1', 'j2'] }]);
      const next = await source.claimPending(10, 60_000, { afterWrites: true });
      expect(next.map((pending) => pending.messages.map((m) => m.id))).toEqual([['j3']]);
    } finally {
      await store.close();
    }
  });

  it('an update of a record no relay holds is handed over: the claim leases it by _id in one command, no read', async () => {
    const commands: string[] = [];
    const store = await connect((name) => commands.push(name));
    try {
      const name = uniqueName('hinted');
      const tenantId = trustedTenantId(uniqueName('t'));
      const records = store.forTenant(tenantId).collection<{ id: string; n?: number }>(name);
      await records.insertOne({ id: 'u1' }); // before the relay runs, without events
      const source = store.outbox([name]);
      await source.claimPending(10, 60_000);
      const updated = await records.findOneAndUpdate(
        { id: 'u1' },
        { $set: { n: 1 } },
        { events: [outboxEvent('k1')] },
      );
      expect(updated).toEqual({ id: 'u1', n: 1 });
      await records.findOneAndUpdate({ id: 'u1' }, { $set: { n: 2 } }, { events: [outboxEvent('k2')] });
      commands.length = 0;
      const claimed = await source.claimPending(10, 60_000, { afterWrites: true });
      expect(commands).toEqual(['update']);
      expect(claimed).toEqual([
        { collection: name, tenantId, id: 'u1', messages: [outboxEvent('k1'), outboxEvent('k2')] },
      ]);
      // Leased: no other claim takes it until it is acknowledged.
      expect(await source.claimPending(10, 60_000)).toEqual([]);
      expect(await source.acknowledge([{ pending: claimed[0]!, messageIds: ['k1', 'k2'] }])).toBe(false);
      expect(await source.countPending()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('an update of a record another relay holds is not handed over; it is claimed once that relay lets it go', async () => {
    const store = await connect();
    const other = await connect();
    try {
      const name = uniqueName('hinted');
      const tenantId = trustedTenantId(uniqueName('t'));
      const otherSource = other.outbox([name]);
      await other
        .forTenant(tenantId)
        .collection<{ id: string }>(name)
        .insertOne(
          { id: 'v1' },
          {
            events: [outboxEvent('m1')],
          },
        );
      const held = await otherSource.claimPending(10, 60_000);
      expect(held.map((pending) => pending.id)).toEqual(['v1']);
      const source = store.outbox([name]);
      await source.claimPending(10, 60_000);
      await store
        .forTenant(tenantId)
        .collection<{ id: string; n?: number }>(name)
        .findOneAndUpdate({ id: 'v1' }, { $set: { n: 1 } }, { events: [outboxEvent('m2')] });
      // Read, not handed over: the other relay holds the record.
      expect(await source.claimPending(10, 60_000, { afterWrites: true })).toEqual([]);
      await otherSource.acknowledge([{ pending: held[0]!, messageIds: ['m1'] }]);
      const claimed = await source.claimPending(10, 60_000);
      expect(claimed.map((pending) => pending.messages.map((m) => m.id))).toEqual([['m2']]);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('a lease its insert took long ago is renewed by its claim id and claimed at once', async () => {
    // Leases of 1.5 s, margins of 200–300 ms either side: the other relay is connected before the clock matters
    // (a connection on a loaded machine took longer than the 50 ms margin this test once had).
    const store = await connect();
    const other = await connect();
    try {
      const name = uniqueName('hinted');
      const source = store.outbox([name]);
      await source.claimPending(10, 1500); // a relay with leases of 1.5 s
      await store
        .forTenant(trustedTenantId(uniqueName('t')))
        .collection<{ id: string }>(name)
        .insertOne({ id: 'r1' }, { events: [outboxEvent('s1')] });
      await new Promise((resolve) => setTimeout(resolve, 500)); // a third of the lease gone before the claim
      const claimed = await source.claimPending(10, 1500, { afterWrites: true });
      expect(claimed.map((pending) => pending.messages.map((m) => m.id))).toEqual([['s1']]);
      // Renewed from the claim: past the insert's lease, another relay still cannot take it.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(await other.outbox([name]).claimPending(10, 1500)).toEqual([]);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('a spent insert lease another relay claimed after it ran out is left to that relay', async () => {
    const store = await connect();
    const other = await connect();
    try {
      const name = uniqueName('hinted');
      const source = store.outbox([name]);
      await source.claimPending(10, 300);
      await store
        .forTenant(trustedTenantId(uniqueName('t')))
        .collection<{ id: string }>(name)
        .insertOne({ id: 'r1' }, { events: [outboxEvent('s1')] });
      await new Promise((resolve) => setTimeout(resolve, 350)); // the insert's lease has run out
      const taken = await other.outbox([name]).claimPending(10, 60_000);
      expect(taken.map((pending) => pending.id)).toEqual(['r1']);
      expect(await source.claimPending(10, 300, { afterWrites: true })).toEqual([]);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('a process whose relay never claimed leases nothing it writes', async () => {
    const store = await connect();
    const other = await connect();
    try {
      const name = uniqueName('hinted');
      await store
        .forTenant(trustedTenantId(uniqueName('t')))
        .collection<{ id: string }>(name)
        .insertOne({ id: 'r1' }, { events: [outboxEvent('n1')] });
      const claimed = await other.outbox([name]).claimPending(10, 60_000);
      expect(claimed.map((pending) => pending.id)).toEqual(['r1']);
    } finally {
      await other.close();
      await store.close();
    }
  });
});

describe('MongoDB store faults (private server)', () => {
  let server: TestServer;
  let store: DocumentStore;
  beforeAll(async () => {
    server = await startMongoServer();
    store = await connectMongoStore({
      url: server.url,
      database: uniqueName('faults'),
      serverSelectionTimeoutMS: 1000,
      operationTimeoutMS: 2000,
    });
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });
  const coll = () =>
    store.forTenant(trustedTenantId('t-faults')).collection<{ id: string; v: number }>('faults');

  it('reports its pool', async () => {
    await coll().insertOne({ id: 'before', v: 1 });
    const info = store.info();
    expect(info).toMatchObject({
      kind: 'mongo',
      poolSize: expect.any(Number),
      availableConnections: expect.any(Number),
    });
    expect(info.poolSize).toBeGreaterThan(0);
  });

  it('fails operations with StoreUnavailableError while the server is down, and recovers after a restart', async () => {
    await server.kill();
    await expect(coll().findById('before')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(coll().insertOne({ id: 'during', v: 2 })).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.ping(500)).rejects.toBeInstanceOf(StoreUnavailableError);

    await server.restart();
    await eventually(() => store.ping(500));
    await coll().insertOne({ id: 'after', v: 3 });
    expect(await coll().findById('after')).toEqual({ id: 'after', v: 3 });
  });

  it('ping rejects within its timeout while the server is paused, and answers again once it resumes', async () => {
    await store.ping(1000);
    server.pause();
    try {
      await expect(store.ping(300)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(coll().findById('after')).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      server.resume();
    }
    await eventually(() => store.ping(500));
    expect(await coll().findById('after')).toEqual({ id: 'after', v: 3 });
  });

  it('refuses to connect when no server answers', async () => {
    await expect(
      connectMongoStore({
        url: 'mongodb://127.0.0.1:1/?directConnection=true',
        database: 'x',
        serverSelectionTimeoutMS: 300,
      }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

/** Retries until `attempt` resolves (bounded: 30 tries, 200 ms apart). */
async function eventually(attempt: () => Promise<unknown>): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      await attempt();
      return;
    } catch (error) {
      if (tries >= 30) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function outboxEvent(id: string): OutboxMessage {
  return { id, subject: `test.${id}`, body: { id } };
}
