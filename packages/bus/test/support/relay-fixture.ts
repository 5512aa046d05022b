/**
 * What the relay's integration suites share: the collection and event they write, and the real servers they run
 * on (the shared MongoDB-protocol server with a database of their own, and a private nats-server they may kill).
 */
import type { TenantId } from '@coperto/auth';
import { connectMongoStore, type DocumentStore, type OutboxMessage } from '@coperto/store';
import { serverUrls, startNatsServer, type TestServer } from '@coperto/testkit';
import { MongoClient } from 'mongodb';
import { buildEvent } from '../../src/events.js';
import { connectNatsBus, type NatsBusOptions } from '../../src/nats-bus.js';
import type { EventBus } from '../../src/types.js';

export const COLLECTION = 'tavoli';

export interface Tavolo {
  id: string;
  stato: string;
}

/** The `tables.status` event of a change of `tavolo` (from `previous`), as a write stores it. */
export function tableEvent(tenantId: TenantId, tavolo: Tavolo, previous = 'none'): OutboxMessage {
  return buildEvent({
    tenantId,
    type: 'tables.status',
    source: '/test/outbox-relay',
    subject: tavolo.id,
    data: { ...tavolo, previousStatus: previous },
  }).message;
}

export interface RelayServers {
  nats: TestServer;
  store: DocumentStore;
  bus: EventBus;
}

/** A private nats-server, the store on `database`, and a bus connected to that server. */
export async function openRelayServers(
  database: string,
  bus: Omit<NatsBusOptions, 'url'>,
): Promise<RelayServers> {
  const nats = await startNatsServer();
  const store = await connectMongoStore({ url: serverUrls().mongoUrl, database });
  return { nats, store, bus: await connectNatsBus({ url: nats.url, ...bus }) };
}

/** Closes what `openRelayServers` opened (any part may be missing after a failed start) and drops `database`. */
export async function closeRelayServers(servers: Partial<RelayServers>, database: string): Promise<void> {
  await servers.bus?.close();
  await servers.store?.close();
  const client = new MongoClient(serverUrls().mongoUrl);
  await client.db(database).dropDatabase();
  await client.close();
  await servers.nats?.stop();
}
