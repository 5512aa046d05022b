import { createHash } from 'node:crypto';
import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import { DuplicateKeyError, StoreUnavailableError } from './errors.js';
import { getPath } from './field-paths.js';
import { leadingField, postingsOf, type Narrowing } from './index-narrowing.js';
import { jsonEqual, type JsonObject } from './json-values.js';
import type { IndexSpec, OutboxMessage } from './types.js';

/**
 * The embedded store's engine on LMDB (npm `lmdb`): one environment in the data directory (`data.mdb`,
 * `lock.mdb`) with six databases, keys in lmdb's ordered-binary encoding, values JSON:
 *
 *   records  [collection, tenantId, seq]               → { doc, outbox?, outboxAt? }  (seq: insertion order)
 *   ids      [collection, tenantId, id]                → seq
 *   uniques  [collection, index, tenantId, valuesKey]  → id   (the unique indexes, per tenant)
 *   pending  [collection, outboxAt, tenantId, id]      → 1    (records whose outbox waits, oldest first)
 *   postings [collection, index, tenantId, 'v', value, seq] → 1  (non-unique indexes: each value of the first
 *            field, each scalar element of an array; [… 'a', seq] an array, [… 'u', seq] an object or an array
 *            of non-scalars: index-narrowing.ts)
 *   meta     ['indexes', collection] → IndexSpec[];  ['seq'] → last seq;
 *            ['postings', collection, index] → true once that index's postings are complete
 *
 * Every write runs in a transaction (`write`): the record, its index entries and its outbox change together or
 * not at all. Commits are synchronous to disk (no `overlappingSync`): a transaction becomes visible to readers
 * only once its data and meta page are fsynced, so nothing reads or relays a write before it is durable. Reads
 * outside a transaction see committed data only.
 */
export interface StoredRecord {
  seq: number;
  /** The record with `tenantId` (as MongoDB stores it). A fresh decoded copy: the caller may keep it. */
  doc: JsonObject;
  outbox: OutboxMessage[];
  /** ISO time the outbox became non-empty; null when empty. */
  outboxAt: string | null;
}

interface StoredValue {
  doc: JsonObject;
  outbox?: OutboxMessage[];
  outboxAt?: string;
}

export interface EngineOptions {
  /** fsync each commit before acknowledging it (false: throwaway data only). */
  fsync: boolean;
}

/** Key bound after every key that starts with `prefix` (no collection or tenant holds a control character). */
function prefixEnd(prefix: readonly string[]): Key[] {
  return [...prefix.slice(0, -1), `${prefix.at(-1)!}\u0001`];
}

/** Keys are tuples (lmdb's ordered-binary encoding sorts them element by element). */
type Parts = Key[];

export class LmdbEngine {
  private closed = false;
  private seq: number;
  private readonly records: Database<StoredValue, Parts>;
  private readonly ids: Database<number, Parts>;
  private readonly uniques: Database<string, Parts>;
  private readonly pendingDb: Database<number, Parts>;
  private readonly postings: Database<number, Parts>;
  private readonly meta: Database<unknown, Parts>;

  private constructor(
    readonly directory: string,
    private readonly root: RootDatabase,
  ) {
    const options = { encoding: 'json' as const };
    this.records = root.openDB<StoredValue, Parts>('records', options);
    this.ids = root.openDB<number, Parts>('ids', options);
    this.uniques = root.openDB<string, Parts>('uniques', options);
    this.pendingDb = root.openDB<number, Parts>('pending', options);
    this.postings = root.openDB<number, Parts>('postings', options);
    this.meta = root.openDB<unknown, Parts>('meta', options);
    this.seq = (this.meta.get(['seq']) as number | undefined) ?? 0;
  }

  static open(directory: string, options: EngineOptions): LmdbEngine {
    const root = open({
      path: directory,
      noSubdir: false, // a directory, even when its name has a dot (lmdb reads `x.y` as a file name)
      maxDbs: 8,
      overlappingSync: false, // a commit is visible only once it is on disk
      noSync: !options.fsync,
    });
    return new LmdbEngine(directory, root);
  }

  /** Throws StoreUnavailableError once closed. */
  assertUsable(): void {
    if (this.closed) throw new StoreUnavailableError({ cause: new Error('store closed') });
  }

  /**
   * Runs `body` in a write transaction (its own nested transaction inside the batch lmdb commits for the
   * current event turn): what it throws aborts its writes only and rejects as is; a failed commit is a
   * StoreUnavailableError. Resolves with `body`'s result once the commit is durable.
   */
  async write<T>(body: () => T): Promise<T> {
    this.assertUsable();
    let thrown: unknown = undefined;
    try {
      return await this.root.childTransaction(() => {
        try {
          return body();
        } catch (error) {
          thrown = error;
          throw error;
        }
      });
    } catch (error) {
      if (thrown !== undefined && error === thrown) throw error;
      throw new StoreUnavailableError({ cause: error });
    }
  }

  get(collection: string, tenantId: string, id: string): StoredRecord | undefined {
    if (!isStorableId(id)) return undefined; // no record can have it (put refuses it)
    const seq = this.ids.get([collection, tenantId, id]);
    if (seq === undefined) return undefined;
    const value = this.records.get([collection, tenantId, seq]);
    return value && toRecord(seq, value);
  }

  /** The tenant's records in insertion order. */
  *scan(collection: string, tenantId: string): Iterable<StoredRecord> {
    const prefix = [collection, tenantId];
    for (const { key, value } of this.records.getRange({ start: prefix, end: prefixEnd(prefix) })) {
      yield toRecord(key[2] as number, value);
    }
  }

  /**
   * The tenant's records a narrowing allows (index-narrowing.ts), in insertion order; null when that index's
   * postings are not complete (the caller scans).
   */
  narrowed(collection: string, tenantId: string, narrowing: Narrowing): StoredRecord[] | null {
    if (this.meta.get(['postings', collection, narrowing.index]) !== true) return null;
    const prefix: Parts = [collection, narrowing.index, tenantId];
    const seqs = new Set<number>();
    const read = (start: Parts, end: Parts) => {
      for (const key of this.postings.getKeys({ start, end })) seqs.add(key.at(-1) as number);
    };
    const everyKind = (kind: string) => read([...prefix, kind], [...prefix, kind, Number.MAX_SAFE_INTEGER]);
    everyKind('u');
    if ('values' in narrowing) {
      for (const value of narrowing.values) {
        read([...prefix, 'v', value], [...prefix, 'v', value, Number.MAX_SAFE_INTEGER]);
      }
    } else {
      const { from, to } = narrowing.range;
      read([...prefix, 'v', from], [...prefix, 'v', to, Number.MAX_SAFE_INTEGER]);
      everyKind('a');
    }
    const found: StoredRecord[] = [];
    for (const seq of [...seqs].sort((a, b) => a - b)) {
      const value = this.records.get([collection, tenantId, seq]);
      if (value) found.push(toRecord(seq, value));
    }
    return found;
  }

  /** Every record of the collection (all tenants), with its tenant. */
  private *scanAll(collection: string): Iterable<{ tenantId: string; record: StoredRecord }> {
    for (const { key, value } of this.records.getRange({
      start: [collection],
      end: prefixEnd([collection]),
    })) {
      yield { tenantId: key[1] as string, record: toRecord(key[2] as number, value) };
    }
  }

  /** Records with pending events, oldest outbox first: `[outboxAt, tenantId, id]` (lazy). */
  *pending(collection: string): Iterable<{ outboxAt: string; tenantId: string; id: string }> {
    for (const key of this.pendingDb.getKeys({ start: [collection], end: prefixEnd([collection]) })) {
      yield { outboxAt: key[1] as string, tenantId: key[2] as string, id: key[3] as string };
    }
  }

  countPending(collection: string): number {
    return this.pendingDb.getKeysCount({ start: [collection], end: prefixEnd([collection]) });
  }

  indexSpecs(collection: string): IndexSpec[] {
    return (this.meta.get(['indexes', collection]) as IndexSpec[] | undefined) ?? [];
  }

  /** The posting keys of a record for one non-unique index (none when its first field is a dotted path). */
  private postingKeys(collection: string, spec: IndexSpec, tenantId: string, seq: number, doc: JsonObject) {
    const field = leadingField(spec);
    if (field === null) return [];
    const prefix: Parts = [collection, spec.name, tenantId];
    const { scalars, array, unusual } = postingsOf(doc[field]);
    const keys: Parts[] = scalars.map((value) => [...prefix, 'v', value, seq]);
    if (array) keys.push([...prefix, 'a', seq]);
    if (unusual) keys.push([...prefix, 'u', seq]);
    return keys;
  }

  /** Replaces a record's postings (`previous` undefined: a new record; `next` undefined: removed; kept when its value is the same). */
  private repost(
    collection: string,
    tenantId: string,
    seq: number,
    previous: JsonObject | undefined,
    next: JsonObject | undefined,
  ): void {
    for (const spec of this.indexSpecs(collection)) {
      if (spec.unique) continue;
      const field = leadingField(spec);
      if (previous && next && field !== null && jsonEqual(previous[field], next[field])) continue; // unchanged
      if (previous) {
        for (const key of this.postingKeys(collection, spec, tenantId, seq, previous))
          void this.postings.remove(key);
      }
      if (next) {
        for (const key of this.postingKeys(collection, spec, tenantId, seq, next))
          void this.postings.put(key, 1);
      }
    }
  }

  /**
   * Name of the unique index (or `id`) that `doc` would break in its tenant, ignoring the record `selfId`
   * (the one being updated), or null. In a write transaction.
   */
  conflict(collection: string, tenantId: string, doc: JsonObject, selfId: string | null): string | null {
    const id = doc.id as string;
    if (!isStorableId(id)) {
      throw new TypeError(
        `A record id is at most ${MAX_ID_BYTES} bytes (UTF-8), not ${Buffer.byteLength(id)}`,
      );
    }
    if (id !== selfId && this.ids.get([collection, tenantId, id]) !== undefined) return 'id';
    for (const spec of this.indexSpecs(collection)) {
      if (!spec.unique) continue;
      const owner = this.uniques.get(uniqueKey(collection, spec, tenantId, doc));
      if (owner !== undefined && owner !== selfId) return spec.name;
    }
    return null;
  }

  /**
   * Writes a record (new when `previous` is undefined), with its unique index entries and its place among
   * pending outboxes. The caller checked `conflict`. In a write transaction.
   */
  put(
    collection: string,
    tenantId: string,
    next: Omit<StoredRecord, 'seq'>,
    previous: StoredRecord | undefined,
  ): void {
    const id = next.doc.id as string;
    let seq = previous?.seq;
    if (seq === undefined) {
      seq = ++this.seq;
      void this.meta.put(['seq'], seq);
      void this.ids.put([collection, tenantId, id], seq);
    }
    const value: StoredValue = { doc: next.doc };
    if (next.outbox.length > 0) {
      value.outbox = next.outbox;
      value.outboxAt = next.outboxAt ?? new Date().toISOString();
    }
    void this.records.put([collection, tenantId, seq], value);
    this.repost(collection, tenantId, seq, previous?.doc, next.doc);
    for (const spec of this.indexSpecs(collection)) {
      if (!spec.unique) continue;
      if (previous) void this.uniques.remove(uniqueKey(collection, spec, tenantId, previous.doc));
      void this.uniques.put(uniqueKey(collection, spec, tenantId, next.doc), id);
    }
    if (previous?.outboxAt && previous.outboxAt !== value.outboxAt) {
      void this.pendingDb.remove([collection, previous.outboxAt, tenantId, id]);
    }
    if (value.outboxAt) void this.pendingDb.put([collection, value.outboxAt, tenantId, id], 1);
  }

  /** Removes a record and its index and outbox entries. In a write transaction. */
  remove(collection: string, tenantId: string, record: StoredRecord): void {
    const id = record.doc.id as string;
    void this.records.remove([collection, tenantId, record.seq]);
    void this.ids.remove([collection, tenantId, id]);
    this.repost(collection, tenantId, record.seq, record.doc, undefined);
    for (const spec of this.indexSpecs(collection)) {
      if (spec.unique) void this.uniques.remove(uniqueKey(collection, spec, tenantId, record.doc));
    }
    if (record.outboxAt) void this.pendingDb.remove([collection, record.outboxAt, tenantId, id]);
  }

  /**
   * Registers indexes (idempotent). A unique index that existing records already break is a DuplicateKeyError
   * (and, thrown in the transaction, changes nothing); a known name with other fields is a TypeError. In a
   * write transaction.
   */
  defineIndexes(collection: string, specs: readonly IndexSpec[]): void {
    const known = new Map(this.indexSpecs(collection).map((spec) => [spec.name, spec]));
    const added: IndexSpec[] = [];
    for (const spec of specs) {
      const existing = known.get(spec.name);
      if (existing && !sameSpec(existing, spec)) {
        throw new TypeError(
          `Index ${spec.name} already exists on ${collection} with other fields or options`,
        );
      }
      if (!existing) added.push({ ...spec, fields: { ...spec.fields } });
    }
    for (const spec of added.filter((candidate) => candidate.unique)) {
      for (const { tenantId, record } of this.scanAll(collection)) {
        const key = uniqueKey(collection, spec, tenantId, record.doc);
        if (this.uniques.get(key) !== undefined) throw new DuplicateKeyError(spec.name);
        void this.uniques.put(key, record.doc.id as string);
      }
    }
    if (added.length > 0) void this.meta.put(['indexes', collection], [...known.values(), ...added]);
    this.completePostings(collection, [...known.values(), ...added]);
  }

  /** Removes these indexes' definitions and entries where they exist. In a write transaction. */
  dropIndexes(collection: string, names: readonly string[]): void {
    const specs = this.indexSpecs(collection);
    const dropped = specs.filter((spec) => names.includes(spec.name));
    if (dropped.length === 0) return;
    void this.meta.put(
      ['indexes', collection],
      specs.filter((spec) => !names.includes(spec.name)),
    );
    for (const spec of dropped) {
      const entries = spec.unique ? this.uniques : this.postings;
      const prefix = [collection, spec.name];
      // Keys first: no cursor over what is removed.
      for (const key of [...entries.getKeys({ start: prefix, end: prefixEnd(prefix) })])
        void entries.remove(key);
      void this.meta.remove(['postings', collection, spec.name]);
    }
  }

  /**
   * Posts the records of every non-unique index whose postings are not complete yet (one just added, or a
   * directory written before postings existed), and marks it complete. In a write transaction.
   */
  private completePostings(collection: string, specs: readonly IndexSpec[]): void {
    for (const spec of specs) {
      const marker: Parts = ['postings', collection, spec.name];
      if (spec.unique || this.meta.get(marker) === true) continue;
      for (const { tenantId, record } of this.scanAll(collection)) {
        for (const key of this.postingKeys(collection, spec, tenantId, record.seq, record.doc)) {
          void this.postings.put(key, 1);
        }
      }
      void this.meta.put(marker, true);
    }
  }

  /** Removes every record, index entry and definition (a migration starting over). In a write transaction. */
  clearAll(): void {
    for (const db of [this.records, this.ids, this.uniques, this.pendingDb, this.postings, this.meta]) {
      for (const key of [...db.getKeys({})]) void db.remove(key); // keys first: no cursor over what is removed
    }
    this.seq = 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.root.close();
  }
}

function toRecord(seq: number, value: StoredValue): StoredRecord {
  const outbox = value.outbox ?? [];
  return { seq, doc: value.doc, outbox, outboxAt: outbox.length > 0 ? (value.outboxAt ?? null) : null };
}

/**
 * The longest id a record can have, in UTF-8 bytes: it is part of LMDB keys (at most 1,978 bytes with the
 * collection and tenant; ordered-binary throws on longer ones). The service's own ids are ULIDs, UUIDs and
 * `ext_<hash>`; an id from a request URL or body that is longer cannot exist, so looking it up finds nothing.
 */
export const MAX_ID_BYTES = 1024;
const isStorableId = (id: string): boolean =>
  id.length <= MAX_ID_BYTES / 4 || Buffer.byteLength(id) <= MAX_ID_BYTES;

/** Values longer than this are keyed by their hash (LMDB keys are at most 1,978 bytes). */
const MAX_KEY_VALUES = 1024;

/** Index key of a record: its tenant and the indexed values (a missing field counts as null, as in MongoDB). */
function uniqueKey(collection: string, spec: IndexSpec, tenantId: string, doc: JsonObject): Parts {
  const values = JSON.stringify(Object.keys(spec.fields).map((path) => getPath(doc, path) ?? null));
  const key =
    Buffer.byteLength(values) > MAX_KEY_VALUES
      ? `sha256:${createHash('sha256').update(values).digest('hex')}`
      : values;
  return [collection, spec.name, tenantId, key];
}

function sameSpec(a: IndexSpec, b: IndexSpec): boolean {
  return JSON.stringify(a.fields) === JSON.stringify(b.fields) && Boolean(a.unique) === Boolean(b.unique);
}
