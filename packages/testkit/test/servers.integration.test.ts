import { MongoClient } from 'mongodb';
import { connect } from 'nats';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { serverUrls, startMongoServer, startNatsServer } from '../src/index.js';

describe('test servers', () => {
  it('answers a MongoDB ping through the official driver', async () => {
    const client = new MongoClient(serverUrls().mongoUrl, { serverSelectionTimeoutMS: 5000 });
    try {
      const reply = await client.db('admin').command({ ping: 1 });
      expect(reply.ok).toBe(1);
      const info = await client.db('admin').command({ buildInfo: 1 });
      expect(String(info.version)).toMatch(/^7\./);
    } finally {
      await client.close();
    }
  });

  it('accepts a NATS connection with JetStream enabled', async () => {
    const nc = await connect({ servers: serverUrls().natsUrl });
    try {
      const jsm = await nc.jetstreamManager();
      const info = await jsm.getAccountInfo();
      expect(info.streams).toBeGreaterThanOrEqual(0);
    } finally {
      await nc.close();
    }
  });

  it('answers a Redis PING', async () => {
    const redis = new Redis(serverUrls().redisUrl, { lazyConnect: true });
    await redis.connect();
    try {
      expect(await redis.ping()).toBe('PONG');
    } finally {
      redis.disconnect();
    }
  });

  const privateNats: Array<() => Promise<void>> = [];
  afterAll(async () => Promise.all(privateNats.map((stop) => stop())));

  it('restarts a private server on the same port after a kill', async () => {
    const nats = await startNatsServer();
    privateNats.push(() => nats.stop());
    await nats.kill();
    await expect(connect({ servers: nats.url, timeout: 500, reconnect: false })).rejects.toThrow();
    await nats.restart();
    const nc = await connect({ servers: nats.url });
    expect(nc.getServer()).toContain(String(nats.port));
    await nc.close();
  });

  it('keeps an acknowledged write across a kill and restart of a persistent (H2) MongoDB server', async () => {
    const mongo = await startMongoServer(undefined, { persistent: true });
    privateNats.push(() => mongo.stop());
    const write = new MongoClient(mongo.url, { serverSelectionTimeoutMS: 5000 });
    await write.db('h2').collection<{ _id: string; n: number }>('docs').insertOne({ _id: 'kept', n: 1 });
    await write.close();
    await mongo.kill();
    await mongo.restart();
    const read = new MongoClient(mongo.url, { serverSelectionTimeoutMS: 5000 });
    try {
      expect(
        await read.db('h2').collection<{ _id: string; n: number }>('docs').findOne({ _id: 'kept' }),
      ).toMatchObject({ n: 1 });
    } finally {
      await read.close();
    }
  });

  // Found by a torture run of the fault suite (2026-11-26): the store's background auto-commit wrote half of a
  // message (a document without its index entry) every second, so a kill could leave a store on which every later
  // read of that document failed with "Expected one element but got zero" (or which Coperto's relay could no longer
  // claim from). A kill must leave each write whole or absent, as MongoDB's journal does.
  it('leaves no half-written write after kills during a write storm (persistent H2 server)', async ({
    annotate,
  }) => {
    const mongo = await startMongoServer(undefined, { persistent: true });
    privateNats.push(() => mongo.stop());
    // 4 kills in the suite (about 20 s; 12 took 60 s under load); H2_KILLS=50 for a longer run.
    const kills = Number(process.env.H2_KILLS ?? 4);
    const client = new MongoClient(mongo.url, { serverSelectionTimeoutMS: 5000, maxPoolSize: 16 });
    type Doc = { _id: string; n: number; key: string; pending?: string };
    const docs = client.db('h2').collection<Doc>('docs');
    await docs.createIndexes([
      { key: { key: 1 }, name: 'key', unique: true },
      { key: { pending: 1 }, name: 'pending', sparse: true },
    ]);
    const acknowledged = new Set<string>();
    const serverErrors: string[] = [];
    const noteError = (error: unknown) => {
      // The server being killed is expected; a server-side failure (an error reply) is not.
      if ((error as { name?: string }).name === 'MongoServerError') serverErrors.push(String(error));
    };
    try {
      for (let kill = 0; kill < kills; kill++) {
        let writing = true;
        const attempted: string[] = [];
        const writers = Array.from({ length: 8 }, async (_, w) => {
          for (let i = 0; writing; i++) {
            const id = `k${kill}-w${w}-${i}`;
            attempted.push(id);
            try {
              await docs.insertOne({ _id: id, n: i, key: id, pending: 'yes' });
              acknowledged.add(id);
              await docs.updateOne({ _id: id }, { $unset: { pending: '' }, $inc: { n: 1 } });
            } catch (error) {
              noteError(error);
              await new Promise((r) => setTimeout(r, 20));
            }
          }
        });
        await new Promise((r) => setTimeout(r, 300 + ((kill * 137) % 900)));
        await mongo.kill();
        writing = false;
        await Promise.all(writers);
        await mongo.restart();
        // What this storm wrote reads back whole: each document by its _id is the same through each index.
        const written = await docs.find({ _id: { $in: attempted } }).toArray();
        for (const doc of written.slice(-50)) {
          expect(await docs.findOne({ key: doc.key })).toEqual(doc);
          if (doc.pending !== undefined)
            expect(await docs.findOne({ pending: 'yes', key: doc.key })).toEqual(doc);
        }
        expect(await docs.countDocuments({ key: { $in: attempted } })).toBe(written.length);
        const stored = new Set(written.map((doc) => doc._id));
        expect([...acknowledged].filter((id) => id.startsWith(`k${kill}-`) && !stored.has(id))).toEqual([]);
      }
      expect(serverErrors).toEqual([]);
      await annotate(
        `${kills} kills, ${acknowledged.size} acknowledged inserts, all whole after each restart`,
      );
    } finally {
      await client.close();
    }
  }, 180_000);
});

describe('MongoDB test server: a filter that pins _id beside other conditions', () => {
  type Doc = { _id: string; x: number; outbox: string[] };
  const docs: Doc[] = Array.from({ length: 6 }, (_, i) => ({
    _id: `d${i}`,
    x: i % 2,
    outbox: i % 3 === 0 ? [] : [`e${i}`],
  }));
  const ids = docs.map((d) => d._id);
  /** Every subset of the ids, each listed in reverse insertion order. */
  const subsets = Array.from({ length: 2 ** ids.length }, (_, mask) =>
    ids.filter((_, i) => mask & (1 << i)).reverse(),
  );

  const withCollection = async (run: (c: import('mongodb').Collection<Doc>) => Promise<void>) => {
    const client = new MongoClient(serverUrls().mongoUrl, { serverSelectionTimeoutMS: 5000 });
    try {
      const collection = client
        .db('planner')
        .collection<Doc>(`c${Date.now()}${Math.random()}`.replace('.', ''));
      // Inserted last id first, so that a scan's order (insertion) differs from the index's (by _id).
      await collection.insertMany(docs.map((d) => ({ ...d })).reverse());
      await run(collection);
    } finally {
      await client.close();
    }
  };

  it('finds exactly the documents the whole filter matches, for every set of ids', async () => {
    await withCollection(async (collection) => {
      for (const subset of subsets) {
        for (const x of [0, 1]) {
          const found = await collection.find({ _id: { $in: subset }, x }).toArray();
          const expected = docs.filter((d) => subset.includes(d._id) && d.x === x).map((d) => d._id);
          expect(found.map((d) => d._id).sort()).toEqual(expected.sort());
        }
        const empty = await collection.find({ _id: { $in: subset }, outbox: { $size: 0 } }).toArray();
        expect(empty.map((d) => d._id).sort()).toEqual(
          docs
            .filter((d) => subset.includes(d._id) && d.outbox.length === 0)
            .map((d) => d._id)
            .sort(),
        );
      }
      for (const doc of docs) {
        expect(await collection.countDocuments({ _id: doc._id, x: doc.x })).toBe(1);
        expect(await collection.countDocuments({ _id: doc._id, x: 1 - doc.x })).toBe(0);
      }
    });
  });

  it('updates exactly the documents the whole filter matches', async () => {
    await withCollection(async (collection) => {
      const subset = ['d5', 'd3', 'd0'];
      const result = await collection.updateMany(
        { _id: { $in: subset }, outbox: { $size: 0 } },
        { $set: { x: 7 } },
      );
      expect(result.modifiedCount).toBe(2);
      expect((await collection.find({ x: 7 }).toArray()).map((d) => d._id).sort()).toEqual(['d0', 'd3']);
      const pulled = await collection.updateOne({ _id: 'd4', outbox: { $size: 0 } }, { $set: { x: 8 } });
      expect(pulled.matchedCount).toBe(0);
    });
  });

  it('answers it from the _id index: the documents come in _id order, not in the order they were inserted', async () => {
    await withCollection(async (collection) => {
      // Without a sort the library returns the candidates of an `_id` index lookup in `_id` order, and a scan's in
      // insertion order: so the order shows which plan ran.
      const planned = await collection.find({ _id: { $in: ['d4', 'd1', 'd2'] }, x: { $gte: 0 } }).toArray();
      expect(planned.map((d) => d._id)).toEqual(['d1', 'd2', 'd4']);
      const scanned = await collection.find({ x: { $gte: 0 }, _id: { $regex: '^d[124]$' } }).toArray();
      expect(scanned.map((d) => d._id)).toEqual(['d4', 'd2', 'd1']);
    });
  });
});
