import { randomUUID } from 'node:crypto';
import type { TenantId } from '@coperto/auth';
import type { EmbeddedEngine } from './embedded-engine.js';
import type { CollectionState, StoredRecord } from './embedded-state.js';
import { DuplicateKeyError } from './errors.js';
import { compileFilter } from './embedded-filter.js';
import { applyUpdate } from './embedded-update.js';
import { copyJson, type JsonObject } from './json-values.js';
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
  Identified,
  Sort,
  TenantCollection,
  Update,
  UpdateOptions,
  WriteOptions,
} from './types.js';
import { upsertId, upsertSeed, validateUpdate } from './update-validation.js';

/**
 * One tenant's view of an embedded collection. Each method validates, then reads or changes memory
 * synchronously (before its first `await`), so concurrent calls are applied one at a time in call order; a
 * write then waits for its log line to be durable.
 */
export class EmbeddedCollection<T extends Identified> implements TenantCollection<T> {
  constructor(
    private readonly engine: EmbeddedEngine,
    private readonly name: string,
    private readonly tenantId: TenantId,
  ) {}

  async insertOne(doc: T, options?: WriteOptions): Promise<T> {
    this.engine.assertUsable();
    const body = prepareNewDocument(doc);
    const events = prepareEvents(options?.events);
    const collection = this.engine.collection(this.name);
    const stored: JsonObject = { tenantId: this.tenantId, ...body };
    const taken = collection.conflict(this.tenantId, stored, null);
    if (taken) throw new DuplicateKeyError(taken);
    const result = view<T>(stored);
    await this.engine.commitPut(collection, {
      tenantId: this.tenantId,
      id: body.id as string,
      doc: stored,
      outbox: events,
      outboxAt: events.length > 0 ? new Date().toISOString() : null,
      lease: 0,
    });
    return result;
  }

  async findById(id: string): Promise<T | null> {
    this.engine.assertUsable();
    if (typeof id !== 'string' || id === '') return null;
    const record = this.engine.existing(this.name)?.get(this.tenantId, id);
    return record ? view<T>(record.doc) : null;
  }

  async findByIds(ids: readonly string[]): Promise<T[]> {
    this.engine.assertUsable();
    const collection = this.engine.existing(this.name);
    if (!collection) return [];
    const found: T[] = [];
    for (const id of new Set(ids)) {
      const record = typeof id === 'string' ? collection.get(this.tenantId, id) : undefined;
      if (record) found.push(view<T>(record.doc));
    }
    return found;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    if (options.sort) validateSort(options.sort);
    validatePaging(options);
    let docs = this.matching(filter).map((record) => record.doc as JsonObject & Identified);
    if (options.sort && Object.keys(options.sort).length > 0) docs = sortDocuments(docs, options.sort);
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

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    validateUpdate(update, PROTECTED_FIELDS, ['id']);
    const events = prepareEvents(options.events);
    const collection = this.engine.collection(this.name);
    const [target] = this.matching(filter, 1);
    if (target) return await this.updateRecord(collection, target, update, events);
    if (!options.upsert) return null;
    return await this.insertUpserted(collection, filter, update, events);
  }

  async deleteOne(filter: Filter, options?: WriteOptions): Promise<boolean> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    const events = prepareEvents(options?.events);
    const [target] = this.matching(filter, 1);
    if (!target) return false;
    await this.deleteRecord(target, events);
    return true;
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.engine.assertUsable();
    validateTenantFilter(filter);
    const targets = this.matching(filter);
    await Promise.all(targets.map((target) => this.deleteRecord(target, [])));
    return targets.length;
  }

  /**
   * Removes a record now; its pending events (and `events`) move to a tombstone in the same synchronous step,
   * logged before the deletion, so they reach the relay whatever happens next.
   */
  private deleteRecord(target: StoredRecord, events: StoredRecord['outbox']): Promise<unknown> {
    const outbox = [...target.outbox, ...events];
    const writes: Array<Promise<void>> = [];
    if (outbox.length > 0) {
      const id = tombstoneId(target.id);
      writes.push(
        this.engine.commitPut(this.engine.collection(deletedOutboxCollection(this.name)), {
          tenantId: this.tenantId,
          id,
          doc: { tenantId: this.tenantId, id, deletedId: target.id },
          outbox,
          outboxAt: target.outboxAt ?? new Date().toISOString(),
          lease: 0,
        }),
      );
    }
    writes.push(this.engine.commitDelete(this.engine.collection(this.name), this.tenantId, target.id));
    return Promise.all(writes);
  }

  private async updateRecord(
    collection: CollectionState,
    target: StoredRecord,
    update: Update,
    events: StoredRecord['outbox'],
  ): Promise<T> {
    const doc = applyUpdate(target.doc, update, { inserting: false });
    const taken = collection.conflict(this.tenantId, doc, target.id);
    if (taken) throw new DuplicateKeyError(taken);
    const result = view<T>(doc);
    await this.engine.commitPut(collection, {
      tenantId: this.tenantId,
      id: target.id,
      doc,
      outbox: events.length > 0 ? [...target.outbox, ...events] : target.outbox,
      outboxAt: target.outboxAt ?? (events.length > 0 ? new Date().toISOString() : null),
      lease: target.lease,
    });
    return result;
  }

  private async insertUpserted(
    collection: CollectionState,
    filter: Filter,
    update: Update,
    events: StoredRecord['outbox'],
  ): Promise<T> {
    const id = upsertId(filter, update) ?? randomUUID();
    const seed: JsonObject = { ...upsertSeed(filter), id, tenantId: this.tenantId };
    const doc = applyUpdate(seed, update, { inserting: true });
    const taken = collection.conflict(this.tenantId, doc, null);
    if (taken) throw new DuplicateKeyError(taken);
    const result = view<T>(doc);
    await this.engine.commitPut(collection, {
      tenantId: this.tenantId,
      id,
      doc,
      outbox: events,
      outboxAt: events.length > 0 ? new Date().toISOString() : null,
      lease: 0,
    });
    return result;
  }

  /** The tenant's records matching the filter, in natural order (an `id` equality is a direct lookup). */
  private matching(filter: Filter, limit = Infinity): StoredRecord[] {
    const collection = this.engine.existing(this.name);
    if (!collection || limit <= 0) return [];
    const candidates =
      typeof filter.id === 'string'
        ? [collection.get(this.tenantId, filter.id)]
        : collection.records(this.tenantId);
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
}

/** A caller's copy: internal fields removed, nothing shared with stored state. */
function view<T>(doc: JsonObject): T {
  return copyJson(publicDocument<T>(doc));
}
