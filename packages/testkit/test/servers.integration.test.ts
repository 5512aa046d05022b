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
});
