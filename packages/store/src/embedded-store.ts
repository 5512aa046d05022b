import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { TenantId } from '@coperto/auth';
import { EmbeddedCollection } from './embedded-collection.js';
import { EmbeddedEngine } from './embedded-engine.js';
import { EmbeddedOutbox } from './embedded-outbox.js';
import { DuplicateKeyError } from './errors.js';
import { validateIndexSpecs } from './index-specs.js';
import { acquireDirectoryLock } from './lock-file.js';
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
  /** Directory holding the data (`data.jsonl`) and the lock (`LOCK`); created when missing. */
  directory: string;
  /**
   * Fsync each group of writes before acknowledging them, so an acknowledged write survives a crash of the
   * process or of the machine. Default true; turn off only for throwaway data (tests, benchmarks).
   */
  fsync?: boolean;
  /**
   * The log is rewritten (compacted) once it is larger than this and more than twice the live data: on open and
   * after writes. Default 1 MiB.
   */
  compactMinBytes?: number;
  /**
   * The directory lock of a process that stopped refreshing it (killed) is taken over after this long; an
   * opener waits up to about 1.5 times this for it. Every process sharing the directory must use the same
   * value. Default 10000 (minimum 5000).
   */
  lockStaleMs?: number;
}

/**
 * Opens the zero-configuration document store: no server, data in one directory on local disk, for one
 * process at a time (an exclusive lock refreshed while open; a lock left by a killed process is taken over once
 * stale, whatever its pid or host; a live one is a StoreLockedError). Data lives in memory and in an append-only log that is replayed on open, so it survives
 * restarts and crashes: a write is acknowledged only once its log line is fsynced (writes arriving together
 * share one fsync), and a line torn by a crash is dropped on the next open.
 */
export async function openEmbeddedStore(options: EmbeddedStoreOptions): Promise<DocumentStore> {
  const directory = resolve(options.directory);
  await mkdir(directory, { recursive: true });
  let engine: EmbeddedEngine | null = null;
  let lost: Error | null = null;
  const lock = await acquireDirectoryLock(directory, {
    ...(options.lockStaleMs !== undefined ? { staleMs: options.lockStaleMs } : {}),
    // Another process may own the directory now: stop writing at once.
    onCompromised: (error) => {
      lost = error;
      engine?.fail(error);
    },
  });
  try {
    engine = await EmbeddedEngine.open(directory, {
      fsync: options.fsync ?? true,
      compactMinBytes: options.compactMinBytes ?? 1024 * 1024,
    });
    if (lost) engine.fail(lost);
    return new EmbeddedStore(engine, () => lock.release());
  } catch (error) {
    await lock.release();
    throw error;
  }
}

class EmbeddedStore implements DocumentStore {
  private closing: Promise<void> | null = null;

  constructor(
    private readonly engine: EmbeddedEngine,
    private readonly releaseLock: () => Promise<void>,
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
    const state = this.engine.collection(collection);
    const before = JSON.stringify(state.indexSpecs());
    const broken = state.defineIndexes(indexes.map((spec) => ({ ...spec, fields: { ...spec.fields } })));
    if (broken) throw new DuplicateKeyError(broken);
    if (JSON.stringify(state.indexSpecs()) !== before) await this.engine.commitIndexes(state);
  }

  outbox(collections: readonly string[]): OutboxSource {
    collections.forEach(assertCollectionName);
    return new EmbeddedOutbox(this.engine, withDeletedOutboxes(collections));
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
