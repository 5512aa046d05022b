import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { TenantId } from '@coperto/auth';
import { acquireDirectoryLock } from './directory-lock.js';
import { EmbeddedCollection } from './embedded-collection.js';
import { EmbeddedOutbox } from './outbox/embedded-outbox.js';
import { validateIndexSpecs } from './index-specs.js';
import { importLegacyLog } from './legacy-import.js';
import { LmdbEngine } from './lmdb-engine.js';
import { assertCollectionName, withDeletedOutboxes } from './stored-document.js';
import type {
  DocumentStore,
  Identified,
  IndexSpec,
  OutboxSource,
  StoreInfo,
  TenantCollection,
  TenantStore,
} from './types.js';

export interface EmbeddedStoreOptions {
  /** Directory holding the data (LMDB's `data.mdb`, `lock.mdb`) and the lock (`owner.lock`); created when missing. */
  directory: string;
  /**
   * Fsync each commit before acknowledging it (writes arriving together share one commit), so an acknowledged
   * write survives a crash of the process or of the machine. Default true; turn off only for throwaway data
   * (tests, benchmarks).
   */
  fsync?: boolean;
}

/**
 * Opens the zero-configuration document store: no server, data in one directory on local disk (LMDB), for one
 * process at a time (an OS lock the kernel frees when its holder dies, so a restart never waits; a live holder
 * is a StoreLockedError). A write is acknowledged, and visible to readers and the relay, only once it is
 * committed to disk. A directory of the earlier append-log format is imported on the first open.
 */
export async function openEmbeddedStore(options: EmbeddedStoreOptions): Promise<DocumentStore> {
  const directory = resolve(options.directory);
  await mkdir(directory, { recursive: true });
  const lock = acquireDirectoryLock(directory);
  let engine: LmdbEngine | null = null;
  try {
    engine = LmdbEngine.open(directory, { fsync: options.fsync ?? true });
    await importLegacyLog(directory, engine);
    return new EmbeddedStore(engine, () => lock.release());
  } catch (error) {
    await engine?.close();
    lock.release();
    throw error;
  }
}

class EmbeddedStore implements DocumentStore {
  private closing: Promise<void> | null = null;
  /** The relay's leases, shared by every outbox view (memory only: a restart frees them). */
  private readonly leases = new Map<string, number>();

  constructor(
    private readonly engine: LmdbEngine,
    private readonly releaseLock: () => void,
  ) {}

  forTenant(tenantId: TenantId): TenantStore {
    if (typeof tenantId !== 'string' || tenantId === '')
      throw new TypeError('tenantId must be a non-empty string');
    const engine = this.engine;
    return {
      tenantId,
      collection<T extends Identified>(name: string): TenantCollection<T> {
        assertCollectionName(name);
        return new EmbeddedCollection<T>(engine, name, tenantId);
      },
    };
  }

  async ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    this.engine.assertUsable();
    assertCollectionName(collection);
    validateIndexSpecs(indexes);
    await this.engine.write(() => this.engine.defineIndexes(collection, indexes));
  }

  async dropIndexes(collection: string, names: readonly string[]): Promise<void> {
    this.engine.assertUsable();
    assertCollectionName(collection);
    await this.engine.write(() => this.engine.dropIndexes(collection, names));
  }

  outbox(collections: readonly string[]): OutboxSource {
    collections.forEach(assertCollectionName);
    return new EmbeddedOutbox(this.engine, withDeletedOutboxes(collections), this.leases);
  }

  async ping(_timeoutMs?: number): Promise<void> {
    this.engine.assertUsable();
  }

  info(): StoreInfo {
    return { kind: 'embedded', database: this.engine.directory };
  }

  close(): Promise<void> {
    this.closing ??= this.engine.close().finally(() => this.releaseLock());
    return this.closing;
  }
}
