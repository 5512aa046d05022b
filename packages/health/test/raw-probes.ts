/**
 * Probes built straight from the official clients, as a service wires them (the store and bus packages
 * provide their own; these keep the health tests independent of them).
 */
import type { Cache } from '@coperto/cache';
import { MongoClient } from 'mongodb';
import { connect, type NatsConnection } from 'nats';
import type { Probe } from '../src/index.js';

export interface Closable<P extends Probe = Probe> {
  probe: P;
  close(): Promise<void>;
}

/** MongoDB: `ping` on admin; pool figures from the driver's connection-pool events. */
export async function mongoProbe(url: string, database: string): Promise<Closable> {
  const maxPoolSize = 5;
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: 500,
    connectTimeoutMS: 500,
    heartbeatFrequencyMS: 500,
    maxPoolSize,
  });
  let open = 0;
  let checkedOut = 0;
  let known = false;
  client.on('connectionCreated', () => (open += 1));
  client.on('connectionClosed', () => (open = Math.max(0, open - 1)));
  client.on('connectionCheckedOut', () => (checkedOut += 1));
  client.on('connectionCheckedIn', () => (checkedOut = Math.max(0, checkedOut - 1)));
  client.on('topologyDescriptionChanged', (event) => (known = event.newDescription.hasKnownServers));
  await client.connect();
  return {
    probe: {
      ping: (timeoutMs) => client.db('admin').command({ ping: 1 }, { timeoutMS: timeoutMs }),
      details: () => ({
        poolSize: maxPoolSize,
        availableConnections: maxPoolSize - checkedOut,
        openConnections: open,
        database,
      }),
      connected: () => known,
    },
    close: () => client.close(),
  };
}

/** NATS: round trip (`rtt`, a PING/PONG flush); reconnects counted from the status stream. */
export async function natsProbe(url: string): Promise<Closable & { connection: NatsConnection }> {
  const nc = await connect({
    servers: url,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 200,
    reconnectJitter: 50,
  });
  let reconnects = 0;
  let connected = true;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') connected = false;
      if (status.type === 'reconnect') {
        connected = true;
        reconnects += 1;
      }
    }
  })();
  return {
    connection: nc,
    probe: {
      ping: () => nc.rtt(),
      details: () => ({ reconnects }),
      connected: () => connected && !nc.isClosed(),
    },
    close: () => nc.close(),
  };
}

/** Redis through the cache package: the cache is itself a probe (ping, details from INFO, connected). */
export function cacheProbe(cache: Cache): Probe {
  return {
    ping: (timeoutMs) => cache.ping(timeoutMs),
    details: () => cache.details(),
    connected: () => cache.connected(),
  };
}
