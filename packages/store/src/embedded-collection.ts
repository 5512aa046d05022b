import { randomUUID } from 'node:crypto';
import type { TenantId } from '@coperto/auth';
import { DuplicateKeyError } from './errors.js';
import { compileFilter } from './embedded-filter.js';
import { applyUpdate } from './embedded-update.js';
import { groupDocuments, validateGroupSpec } from './grouping.js';
import { narrowing } from './index-narrowing.js';
import type { JsonObject } from './json-values.js';
import type { LmdbEngine, StoredRecord } from './lmdb-engine.js';
import { page, sortDocuments, validatePaging, validateSort } from './sort.js';
import {
  deletedOutboxCollection,
  PROTECTED_FIELDS,
  prepareEvents,
  prepareNewDocument,
  publicDocument,
  tombstoneId,
  validateTenantFilter,
} from './stored-document.js';
import type {
  Filter,
  FindOptions,
  Group,
  GroupSpec,
  Identified,
  OutboxMessage,
  Sort,
  TenantCollection,
  Update,
  UpdateOptions,
  WriteOptions,
} from './types.js';
import { upsertId, upsertSeed, validateUpdate } from './update-validation.js';

/**
 * One tenant's view of an embedded collection. Reads see committed (so durable) data only. Each write validates,
 * then reads, decides and writes inside one LMDB transaction (`engine.write`), so concurrent conditional updates
 * are serialized (exactly one sees the old state), and the record, its unique index entries, its outbox and a
 * delete's tombstone change together. The promise resolves once the commit is on disk.
 */
export class EmbeddedCollection<T extends Identified> implements TenantCollection<T> {
  constructor(
    private readonly engine: LmdbEngine,
    private readonly name: string,
    private readonly tenantId: TenantId,
  ) {}

  async insertOne(doc: T, options?: WriteOptions): Promise<T> {
    this.engine.assertUsable();
    const body = prepareNewDocument(doc);
    const events = prepareEvents(options?.events);
    const stored: JsonObject = { tenantId: this.tenantId, ...body };
    return await this.engine.write(() => this.insert(stored, events));
  }

  async findById(id: string): Promise<T | null> {
    this.engine.assertUsable();
    if (typeof id !== 'string' || id === '') return null;
    const record = this.engine.get(this.name, this.tenantId, id);
    return record ? view<T>(record.doc) : null;
  }

  async findByIds(ids: readonly string[]): Promise<T[]> {
    this.engine.assertUsable();
    const found: T[] = [];
    for (const id of new Set(ids)) {
      const record =
        typeof id === 'string' && id !== '' ? this.engine.get(this.name, this.tenantId, id) : undefined;
      if (record) found.push(view<T>(record.doc));
    }
    return found;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    if (options.sort) validateSort(options.sort);
    validatePaging(options);
    const sorted = options.sort !== undefined && Object.keys(options.sort).length > 0;
    // Unsorted, the page is the first matches in insertion order: reading stops there.
    const enough = !sorted && options.limit ? (options.skip ?? 0) + options.limit : Infinity;
    let docs = this.matching(filter, enough).map((record) => record.doc as JsonObject & Identified);
    if (sorted) docs = sortDocuments(docs, options.sort!);
    return page(docs, options).map((doc) => view<T>(doc));
  }

  async findOne(filter: Filter, options: { sort?: Sort } = {}): Promise<T | null> {
    const [first] = await this.find(filter, { sort: options.sort, limit: 1 });
    return first ?? null;
  }

  async count(filter: Filter = {}): Promise<number> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    return this.matching(filter).length;
  }

  async group(filter: Filter, spec: GroupSpec): Promise<Group[]> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    validateGroupSpec(spec);
    return groupDocuments(
      this.matching(filter).map((record) => record.doc),
      spec,
    );
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    validateUpdate(update, PROTECTED_FIELDS, ['id']);
    const events = prepareEvents(options.events);
    return await this.engine.write(() => {
      const [target] = this.matching(filter, 1);
      if (target) return this.update(target, update, events);
      if (!options.upsert) return null;
      const id = upsertId(filter, update) ?? randomUUID();
      const seed: JsonObject = { ...upsertSeed(filter), id, tenantId: this.tenantId };
      return this.insert(applyUpdate(seed, update, { inserting: true }), events);
    });
  }

  async deleteOne(filter: Filter, options?: WriteOptions): Promise<boolean> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    const events = prepareEvents(options?.events);
    return await this.engine.write(() => {
      const [target] = this.matching(filter, 1);
      if (target) this.delete(target, events);
      return target !== undefined;
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    return await this.engine.write(() => {
      const targets = this.matching(filter);
      for (const target of targets) this.delete(target, []);
      return targets.length;
    });
  }

  /** In a transaction: stores a new record (DuplicateKeyError when its id or a unique value is taken). */
  private insert(doc: JsonObject, events: OutboxMessage[]): T {
    const taken = this.engine.conflict(this.name, this.tenantId, doc, null);
    if (taken) throw new DuplicateKeyError(taken);
    const outboxAt = events.length > 0 ? new Date().toISOString() : null;
    this.engine.put(this.name, this.tenantId, { doc, outbox: events, outboxAt }, undefined);
    return view<T>(doc);
  }

  /** In a transaction: applies the update to the record and appends its events to the outbox. */
  private update(target: StoredRecord, update: Update, events: OutboxMessage[]): T {
    const doc = applyUpdate(target.doc, update, { inserting: false });
    const taken = this.engine.conflict(this.name, this.tenantId, doc, target.doc.id as string);
    if (taken) throw new DuplicateKeyError(taken);
    const outbox = [...target.outbox, ...events];
    const outboxAt = target.outboxAt ?? (events.length > 0 ? new Date().toISOString() : null);
    this.engine.put(this.name, this.tenantId, { doc, outbox, outboxAt }, target);
    return view<T>(doc);
  }

  /**
   * In a transaction: removes a record; its pending events (and `events`) move to a tombstone in the same
   * transaction, so they reach the relay whatever happens next.
   */
  private delete(target: StoredRecord, events: OutboxMessage[]): void {
    const outbox = [...target.outbox, ...events];
    if (outbox.length > 0) {
      const id = tombstoneId(target.doc.id as string);
      this.engine.put(
        deletedOutboxCollection(this.name),
        this.tenantId,
        {
          doc: { tenantId: this.tenantId, id, deletedId: target.doc.id },
          outbox,
          outboxAt: target.outboxAt ?? new Date().toISOString(),
        },
        undefined,
      );
    }
    this.engine.remove(this.name, this.tenantId, target);
  }

  /**
   * The tenant's records matching the filter, in insertion order: an `id` equality is a direct lookup, a filter
   * on the first field of a non-unique index reads that index's postings (index-narrowing.ts), others scan.
   */
  private matching(filter: Filter, limit = Infinity): StoredRecord[] {
    if (limit <= 0) return [];
    const candidates = this.candidates(filter);
    const matches = compileFilter(filter);
    const found: StoredRecord[] = [];
    for (const record of candidates) {
      if (record && matches(record.doc)) {
        found.push(record);
        if (found.length >= limit) break;
      }
    }
    return found;
  }

  private candidates(filter: Filter): Iterable<StoredRecord | undefined> {
    if (typeof filter.id === 'string') return [this.engine.get(this.name, this.tenantId, filter.id)];
    const indexes = this.engine.indexSpecs(this.name).filter((spec) => !spec.unique);
    const plan = indexes.length > 0 ? narrowing(filter, indexes) : null;
    return (
      (plan && this.engine.narrowed(this.name, this.tenantId, plan)) ??
      this.engine.scan(this.name, this.tenantId)
    );
  }
}

/** A caller's view: internal fields removed (the stored document is a fresh decoded copy, shared with no one). */
function view<T>(doc: JsonObject): T {
  return publicDocument<T>(doc);
}
