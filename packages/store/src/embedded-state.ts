import { getPath } from './field-paths.js';
import type { JsonObject } from './json-values.js';
import type { IndexSpec, OutboxMessage } from './types.js';

/**
 * The embedded store's in-memory data (no I/O): per collection, records by tenant and id, the unique indexes
 * (scoped per tenant) and the set of records whose outbox is pending, oldest first.
 */

export interface StoredRecord {
  readonly tenantId: string;
  readonly id: string;
  /** The record with `tenantId` (as MongoDB stores it); never handed out without a copy. */
  doc: JsonObject;
  outbox: OutboxMessage[];
  /** ISO time the outbox became non-empty; null when empty. */
  outboxAt: string | null;
  /** Epoch ms until which a relay holds the outbox (memory only: a restart frees every lease). */
  lease: number;
  /** Length of this record's last log line (to know how much of the log is live). */
  logBytes: number;
}

interface UniqueIndex {
  spec: IndexSpec;
  /** `tenant \0 key values` → record id */
  owners: Map<string, string>;
}

export class CollectionState {
  private readonly tenants = new Map<string, Map<string, StoredRecord>>();
  private readonly indexes = new Map<string, IndexSpec>();
  private readonly uniques = new Map<string, UniqueIndex>();
  /** Records with pending events, in the order their outbox became non-empty. */
  readonly pending = new Set<StoredRecord>();

  constructor(readonly name: string) {}

  get(tenantId: string, id: string): StoredRecord | undefined {
    return this.tenants.get(tenantId)?.get(id);
  }

  /** The tenant's records in insertion order (MongoDB's natural order on a fresh collection). */
  records(tenantId: string): Iterable<StoredRecord> {
    return this.tenants.get(tenantId)?.values() ?? [];
  }

  *allRecords(): Iterable<StoredRecord> {
    for (const records of this.tenants.values()) yield* records.values();
  }

  indexSpecs(): IndexSpec[] {
    return [...this.indexes.values()];
  }

  /**
   * Name of the unique index (or `id`) that `doc` would break in its tenant, ignoring the record `selfId`
   * (the one being updated), or null.
   */
  conflict(tenantId: string, doc: JsonObject, selfId: string | null): string | null {
    const id = doc.id as string;
    if (id !== selfId && this.get(tenantId, id)) return 'id';
    for (const index of this.uniques.values()) {
      const owner = index.owners.get(uniqueKey(tenantId, index.spec, doc));
      if (owner !== undefined && owner !== selfId) return index.spec.name;
    }
    return null;
  }

  /**
   * Inserts a record, or updates the stored one in place (same object, so it keeps its place in `pending`).
   * The caller checked `conflict`. Returns the stored record.
   */
  put(record: StoredRecord): StoredRecord {
    let stored = this.get(record.tenantId, record.id);
    if (stored) {
      this.unindex(stored);
      stored.doc = record.doc;
      stored.outbox = record.outbox;
      stored.outboxAt = record.outboxAt;
      stored.lease = record.lease;
      stored.logBytes = record.logBytes;
    } else {
      stored = { ...record };
      let records = this.tenants.get(record.tenantId);
      if (!records) {
        records = new Map();
        this.tenants.set(record.tenantId, records);
      }
      records.set(record.id, stored);
    }
    for (const index of this.uniques.values()) {
      index.owners.set(uniqueKey(stored.tenantId, index.spec, stored.doc), stored.id);
    }
    if (stored.outbox.length === 0) this.pending.delete(stored);
    else this.pending.add(stored);
    return stored;
  }

  remove(tenantId: string, id: string): StoredRecord | undefined {
    const previous = this.get(tenantId, id);
    if (!previous) return undefined;
    this.unindex(previous);
    this.pending.delete(previous);
    const records = this.tenants.get(tenantId)!;
    records.delete(id);
    if (records.size === 0) this.tenants.delete(tenantId);
    return previous;
  }

  /**
   * Registers indexes (idempotent). A unique index that existing records already break is a DuplicateKey
   * (its name is returned and nothing changes); a known name with other fields is a TypeError.
   */
  defineIndexes(specs: readonly IndexSpec[]): string | null {
    for (const spec of specs) {
      const known = this.indexes.get(spec.name);
      if (known && !sameSpec(known, spec)) {
        throw new TypeError(`Index ${spec.name} already exists on ${this.name} with other fields or options`);
      }
    }
    const built: UniqueIndex[] = [];
    for (const spec of specs) {
      if (!spec.unique || this.uniques.has(spec.name)) continue;
      const index: UniqueIndex = { spec, owners: new Map() };
      for (const record of this.allRecords()) {
        const key = uniqueKey(record.tenantId, spec, record.doc);
        if (index.owners.has(key)) return spec.name;
        index.owners.set(key, record.id);
      }
      built.push(index);
    }
    for (const spec of specs) this.indexes.set(spec.name, spec);
    for (const index of built) this.uniques.set(index.spec.name, index);
    return null;
  }

  private unindex(record: StoredRecord): void {
    for (const index of this.uniques.values()) {
      const key = uniqueKey(record.tenantId, index.spec, record.doc);
      if (index.owners.get(key) === record.id) index.owners.delete(key);
    }
  }
}

/** Index key of a record: its tenant and the indexed values (a missing field counts as null, as in MongoDB). */
function uniqueKey(tenantId: string, spec: IndexSpec, doc: JsonObject): string {
  const values = Object.keys(spec.fields).map((path) => getPath(doc, path) ?? null);
  return `${tenantId}\u0000${JSON.stringify(values)}`;
}

function sameSpec(a: IndexSpec, b: IndexSpec): boolean {
  return JSON.stringify(a.fields) === JSON.stringify(b.fields) && Boolean(a.unique) === Boolean(b.unique);
}
