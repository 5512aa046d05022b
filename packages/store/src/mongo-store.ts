import { withTimeout } from '@coperto/async';
import type { TenantId } from '@coperto/auth';
import { MongoClient, type Db } from 'mongodb';
import { StoreUnavailableError } from './errors.js';
import { tenantIndexKey, validateIndexSpecs } from './index-specs.js';
import { MongoTenantCollection, type MongoContext } from './mongo-collection.js';
import { OutboxHints } from './outbox/hints.js';
import { WrittenOutboxes } from './outbox/written-outboxes.js';
import { isMissingIndex, isMissingNamespace, toStoreError } from './mongo-errors.js';
import { MongoOutbox } from './outbox/mongo-outbox.js';
import { trackPool, type PoolStats } from './mongo-pool-stats.js';
import {
  OUTBOX_AT_FIELD,
  assertCollectionName,
  deletedOutboxCollection,
  withDeletedOutboxes,
} from './stored-document.js';
import type {
  DocumentStore,
  Identified,
  IndexSpec,
  OutboxSource,
  StoreInfo,
  TenantCollection,
  TenantStore,
} from './types.js';

export interface MongoStoreOptions {
  /** Connection string, e.g. `mongodb://127.0.0.1:27017/?directConnection=true`. */
  url: string;
  /** Database name. */
  database: string;
  /** How long an operation waits for a reachable server before failing with StoreUnavailableError. Default 5000. */
  serverSelectionTimeoutMS?: number;
  /** Connections per server. Default 100 (the driver's). */
  maxPoolSize?: number;
  /**
   * How long an operation waits for a reply on its connection, or for a free connection, before failing with
   * StoreUnavailableError (a paused or hung server). Default 10000.
   */
  operationTimeoutMS?: number;
  /**
   * A claim after writes (the relay kicked) still reads every outbox collection not read for this long. Default
   * 1000: the relay's idle polls (every 250 ms) read them all anyway; this bounds how late, while this process
   * writes without pause, it finds what other processes left (a crashed instance's records, expired leases).
   */
  outboxQuietReadMs?: number;
  /**
   * Told the name and body of every command the driver sends (tests and diagnostics count store round trips and
   * read their filters with it).
   */
  onCommand?: (commandName: string, command: Readonly<Record<string, unknown>>) => void;
}

const DEFAULT_MAX_POOL_SIZE = 100;
const DEFAULT_PING_TIMEOUT_MS = 1000;
/** Sparse index on the outbox marker, so the relay's poll reads only pending records. */
const OUTBOX_INDEX = { key: { [OUTBOX_AT_FIELD]: 1 }, name: '_outbox_pending', sparse: true };

/**
 * Connects the MongoDB adapter with the official driver and waits for the server (rejecting with
 * StoreUnavailableError after `serverSelectionTimeoutMS` when there is none). Operations never hang: they fail
 * with StoreUnavailableError after `serverSelectionTimeoutMS` (no server) or `operationTimeoutMS` (no reply).
 */
export async function connectMongoStore(options: MongoStoreOptions): Promise<DocumentStore> {
  const serverSelectionTimeoutMS = options.serverSelectionTimeoutMS ?? 5000;
  const operationTimeoutMS = options.operationTimeoutMS ?? 10_000;
  const maxPoolSize = options.maxPoolSize ?? DEFAULT_MAX_POOL_SIZE;
  const client = new MongoClient(options.url, {
    serverSelectionTimeoutMS,
    connectTimeoutMS: serverSelectionTimeoutMS,
    socketTimeoutMS: operationTimeoutMS,
    waitQueueTimeoutMS: operationTimeoutMS,
    maxPoolSize,
    ignoreUndefined: true,
    appName: 'coperto',
    monitorCommands: options.onCommand !== undefined,
  });
  if (options.onCommand) {
    const onCommand = options.onCommand;
    client.on('commandStarted', (event) => onCommand(event.commandName, event.command));
  }
  const pool = trackPool(client);
  try {
    await client.connect();
  } catch (error) {
    await client.close().catch(() => {});
    throw toStoreError(error);
  }
  return new MongoStore(
    client,
    client.db(options.database),
    pool,
    maxPoolSize,
    options.outboxQuietReadMs ?? DEFAULT_OUTBOX_QUIET_READ_MS,
  );
}

const DEFAULT_OUTBOX_QUIET_READ_MS = 1000;

class MongoStore implements DocumentStore, MongoContext {
  private closed = false;
  private closing: Promise<void> | null = null;
  readonly writtenOutboxes: WrittenOutboxes;
  readonly outboxHints = new OutboxHints();

  constructor(
    private readonly client: MongoClient,
    readonly db: Db,
    private readonly pool: PoolStats,
    private readonly maxPoolSize: number,
    outboxQuietReadMs: number,
  ) {
    this.writtenOutboxes = new WrittenOutboxes(outboxQuietReadMs);
  }

  async run<R>(operation: () => Promise<R>): Promise<R> {
    if (this.closed) throw new StoreUnavailableError({ cause: new Error('store closed') });
    try {
      return await operation();
    } catch (error) {
      throw toStoreError(error);
    }
  }

  forTenant(tenantId: TenantId): TenantStore {
    if (typeof tenantId !== 'string' || tenantId === '')
      throw new TypeError('tenantId must be a non-empty string');
    const context: MongoContext = this;
    return {
      tenantId,
      collection<T extends Identified>(name: string): TenantCollection<T> {
        assertCollectionName(name);
        return new MongoTenantCollection<T>(context, name, tenantId);
      },
    };
  }

  async ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    assertCollectionName(collection);
    validateIndexSpecs(indexes);
    const models = indexes.map((spec) => ({
      key: tenantIndexKey(spec),
      name: spec.name,
      ...(spec.unique ? { unique: true } : {}),
    }));
    await this.run(() => this.db.collection(collection).createIndexes([...models, OUTBOX_INDEX]));
    await this.run(() =>
      this.db.collection(deletedOutboxCollection(collection)).createIndexes([OUTBOX_INDEX]),
    );
  }

  async dropIndexes(collection: string, names: readonly string[]): Promise<void> {
    assertCollectionName(collection);
    const existing = await this.run(() => this.db.collection(collection).listIndexes().toArray()).catch(
      (error: unknown) => {
        // No such collection: no index to drop.
        if (isMissingNamespace(error)) return [];
        throw error;
      },
    );
    const present = existing.map((index) => String(index.name)).filter((name) => names.includes(name));
    for (const name of present) {
      await this.run(() => this.db.collection(collection).dropIndex(name)).catch((error: unknown) => {
        // Dropped meanwhile by another instance starting at the same time.
        if (!isMissingIndex(error)) throw error;
      });
    }
  }

  outbox(collections: readonly string[]): OutboxSource {
    collections.forEach(assertCollectionName);
    return new MongoOutbox(this, withDeletedOutboxes(collections));
  }

  /** MongoDB `ping`, abandoned (rejecting) after `timeoutMs` even if the server never answers. */
  async ping(timeoutMs = DEFAULT_PING_TIMEOUT_MS): Promise<void> {
    await withTimeout(
      this.run(() => this.db.command({ ping: 1 })),
      timeoutMs,
      () => new StoreUnavailableError({ cause: new Error(`ping timed out after ${timeoutMs} ms`) }),
    );
  }

  info(): StoreInfo {
    return {
      kind: 'mongo',
      database: this.db.databaseName,
      poolSize: this.pool.open(),
      // maxPoolSize 0 means "no limit" to the driver
      ...(this.maxPoolSize > 0
        ? { availableConnections: Math.max(0, this.maxPoolSize - this.pool.inUse()) }
        : {}),
    };
  }

  close(): Promise<void> {
    this.closed = true;
    this.closing ??= this.client.close();
    return this.closing;
  }
}
