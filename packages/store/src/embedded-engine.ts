import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { AppendLog } from './append-log.js';
import { encodeEntry, headerEntry, splitLog, type LogEntry } from './embedded-log-entries.js';
import { CollectionState, type StoredRecord } from './embedded-state.js';
import { StoreUnavailableError } from './errors.js';

export const LOG_FILE = 'data.jsonl';

export interface EngineOptions {
  fsync: boolean;
  /** Rewrite the log once it is over this size and over `COMPACT_RATIO` times the live records' size. */
  compactMinBytes: number;
}

/** The log is rewritten when it holds this many times more bytes than the live records. */
export const COMPACT_RATIO = 2;

/**
 * The embedded store's engine: in-memory collections plus the append-only log that makes them durable.
 * Every write changes memory synchronously (so concurrent conditional updates are serialized: exactly one
 * sees the old state) and then waits for its log line to be fsynced before it is acknowledged.
 */
export class EmbeddedEngine {
  private readonly collections = new Map<string, CollectionState>();
  /** Bytes the live records' lines take (what a compacted log would hold, give or take the index lines). */
  private liveBytes = 0;
  private closed = false;
  private failure: Error | null = null;

  private constructor(
    readonly directory: string,
    private readonly options: EngineOptions,
    private log: AppendLog | null,
  ) {}

  /** Replays the log in `directory` (cutting a torn last line) and compacts it when it is mostly dead. */
  static async open(directory: string, options: EngineOptions): Promise<EmbeddedEngine> {
    const path = join(directory, LOG_FILE);
    await unlink(`${path}.compact`).catch(() => {}); // left by a crash during compaction; the log is intact
    let entries: LogEntry[] = [];
    const engine = new EmbeddedEngine(directory, options, null);
    const log = await AppendLog.open(path, {
      fsync: options.fsync,
      inspect: (contents) => {
        const split = splitLog(contents);
        entries = split.entries;
        return split.validBytes;
      },
      afterFlush: () => engine.compactIfWorthIt(),
    });
    engine.log = log;
    try {
      engine.replay(entries);
      if (entries.length === 0) await log.append(encodeEntry(headerEntry()));
      engine.compactIfWorthIt();
      await log.settle();
    } catch (error) {
      await log.close();
      throw error;
    }
    return engine;
  }

  /** Throws StoreUnavailableError once closed or after a failed disk write. */
  assertUsable(): void {
    const failure = this.closed ? new Error('store closed') : (this.failure ?? this.log?.error);
    if (failure) throw new StoreUnavailableError({ cause: failure });
  }

  /** From now on every operation fails with StoreUnavailableError (e.g. the directory lock was lost). */
  fail(error: Error): void {
    this.failure ??= error;
  }

  existing(name: string): CollectionState | undefined {
    return this.collections.get(name);
  }

  collection(name: string): CollectionState {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new CollectionState(name);
      this.collections.set(name, collection);
    }
    return collection;
  }

  /** Stores a record in memory now; resolves when its log line is durable. */
  commitPut(collection: CollectionState, record: Omit<StoredRecord, 'logBytes'>): Promise<void> {
    const line = encodeEntry(putEntry(collection.name, record));
    const previous = collection.get(record.tenantId, record.id);
    const logBytes = Buffer.byteLength(line) + 1;
    this.liveBytes += logBytes - (previous?.logBytes ?? 0);
    collection.put({ ...record, logBytes });
    return this.append(line);
  }

  /** Removes a record from memory now; resolves when the deletion is durable. */
  commitDelete(collection: CollectionState, tenantId: string, id: string): Promise<void> {
    const previous = collection.remove(tenantId, id);
    if (previous) this.liveBytes -= previous.logBytes;
    return this.append(encodeEntry({ op: 'delete', collection: collection.name, tenantId, id }));
  }

  /** Records a collection's index definitions (all of them: the line is the full state). */
  commitIndexes(collection: CollectionState): Promise<void> {
    return this.append(
      encodeEntry({ op: 'indexes', collection: collection.name, indexes: collection.indexSpecs() }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.log?.close();
  }

  private async append(line: string): Promise<void> {
    try {
      await this.log!.append(line);
    } catch (error) {
      throw new StoreUnavailableError({ cause: error });
    }
  }

  private replay(entries: readonly LogEntry[]): void {
    const first = entries[0];
    if (first && first.op !== 'header') {
      throw new Error(`${join(this.directory, LOG_FILE)} is not a Coperto embedded store log`);
    }
    for (const entry of entries) {
      switch (entry.op) {
        case 'header':
          break;
        case 'indexes': {
          const collection = this.collection(entry.collection);
          const broken = collection.defineIndexes(entry.indexes);
          if (broken) throw new Error(`Embedded store log: records break unique index ${broken}`);
          break;
        }
        case 'put': {
          const collection = this.collection(entry.collection);
          const previous = collection.get(entry.tenantId, entry.id);
          const logBytes = Buffer.byteLength(encodeEntry(entry)) + 1;
          this.liveBytes += logBytes - (previous?.logBytes ?? 0);
          const outbox = entry.outbox ?? [];
          collection.put({
            tenantId: entry.tenantId,
            id: entry.id,
            doc: { tenantId: entry.tenantId, ...entry.doc },
            outbox,
            outboxAt: outbox.length > 0 ? (entry.outboxAt ?? new Date(0).toISOString()) : null,
            lease: 0,
            logBytes,
          });
          break;
        }
        case 'delete': {
          const previous = this.collection(entry.collection).remove(entry.tenantId, entry.id);
          if (previous) this.liveBytes -= previous.logBytes;
          break;
        }
      }
    }
  }

  private compactIfWorthIt(): void {
    const log = this.log;
    if (!log || log.size <= Math.max(this.options.compactMinBytes, COMPACT_RATIO * this.liveBytes)) return;
    log.requestRewrite(() => this.snapshot());
  }

  /** The current state as log lines: header, then per collection its indexes and its records. */
  private *snapshot(): Iterable<string> {
    yield encodeEntry(headerEntry());
    for (const collection of this.collections.values()) {
      const indexes = collection.indexSpecs();
      if (indexes.length > 0) yield encodeEntry({ op: 'indexes', collection: collection.name, indexes });
      for (const record of collection.allRecords()) yield encodeEntry(putEntry(collection.name, record));
    }
  }
}

type PutEntry = Extract<LogEntry, { op: 'put' }>;

function putEntry(collection: string, record: Omit<StoredRecord, 'logBytes'>): PutEntry {
  const { tenantId: _tenant, ...doc } = record.doc;
  const entry: PutEntry = { op: 'put', collection, tenantId: record.tenantId, id: record.id, doc };
  if (record.outbox.length > 0) {
    entry.outbox = record.outbox;
    entry.outboxAt = record.outboxAt ?? new Date().toISOString();
  }
  return entry;
}
