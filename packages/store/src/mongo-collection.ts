import { randomUUID } from 'node:crypto';
import type { TenantId } from '@coperto/auth';
import type { Collection, Db, Document, UpdateFilter } from 'mongodb';
import { isDuplicateKey } from './mongo-errors.js';
import { validatePaging, validateSort } from './sort.js';
import type { JsonObject } from './json-values.js';
import {
  OUTBOX_AT_FIELD,
  OUTBOX_FIELD,
  OUTBOX_LEASE_FIELD,
  OUTBOX_CLAIM_FIELD,
  PROTECTED_FIELDS,
  deletedOutboxCollection,
  prepareEvents,
  prepareNewDocument,
  publicDocument,
  tenantKey,
  tombstoneId,
  validateTenantFilter,
} from './stored-document.js';
import { StoreUnavailableError } from './errors.js';
import type { OutboxHints } from './outbox/hints.js';
import type { WrittenOutboxes } from './outbox/written-outboxes.js';
import { fromMongoGroups, mongoGroupStage, validateGroupSpec } from './grouping.js';
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

/** A delete retried this often when events keep arriving on its record between its read and its delete. */
const MAX_DELETE_ATTEMPTS = 10;

/** What a MongoDB collection view needs from its store. */
export interface MongoContext {
  readonly db: Db;
  /** Collections written with events since the relay last read them (see WrittenOutboxes). */
  readonly writtenOutboxes: WrittenOutboxes;
  /** Records this process inserted with events, leased for and handed to its own relay (see OutboxHints). */
  readonly outboxHints: OutboxHints;
  /** Runs a driver call; rejects with StoreUnavailableError once closed; maps driver errors (toStoreError). */
  run<R>(operation: () => Promise<R>): Promise<R>;
}

/** Leaves the internal fields on the server. */
const PUBLIC_PROJECTION = {
  _id: 0,
  tenantId: 0,
  [OUTBOX_FIELD]: 0,
  [OUTBOX_AT_FIELD]: 0,
  [OUTBOX_LEASE_FIELD]: 0,
  [OUTBOX_CLAIM_FIELD]: 0,
} as const;

/** The same, with the record's outbox (publicDocument leaves it out of what the caller gets). */
const PUBLIC_PROJECTION_WITH_OUTBOX = (() => {
  const { [OUTBOX_FIELD]: _outbox, ...rest } = PUBLIC_PROJECTION;
  return rest;
})();

/** The same, with the record's outbox and its lease. */
const PUBLIC_PROJECTION_WITH_OUTBOX_AND_LEASE = (() => {
  const { [OUTBOX_LEASE_FIELD]: _lease, ...rest } = PUBLIC_PROJECTION_WITH_OUTBOX;
  return rest;
})();

/**
 * One tenant's view of a MongoDB collection: `_id` is `tenantKey(tenantId, id)`, and `tenantId` is added to
 * every filter and every insert.
 */
export class MongoTenantCollection<T extends Identified> implements TenantCollection<T> {
  private readonly collection: Collection<Document>;

  constructor(
    private readonly context: MongoContext,
    name: string,
    private readonly tenantId: TenantId,
  ) {
    this.collection = context.db.collection(name);
  }

  async insertOne(doc: T, options?: WriteOptions): Promise<T> {
    const body = prepareNewDocument(doc);
    const events = prepareEvents(options?.events);
    const stored: Document = {
      _id: tenantKey(this.tenantId, body.id as string),
      tenantId: this.tenantId,
      ...body,
    };
    const name = this.collection.collectionName;
    const lease = events.length > 0 ? this.context.outboxHints.writeLease(name, Date.now()) : null;
    if (events.length > 0) {
      stored[OUTBOX_FIELD] = events;
      stored[OUTBOX_AT_FIELD] = new Date().toISOString();
    }
    if (lease) {
      // A new record: nobody else can hold it, so the insert leases it for this process's relay.
      stored[OUTBOX_LEASE_FIELD] = lease.until;
      stored[OUTBOX_CLAIM_FIELD] = lease.claimId;
    }
    await this.context.run(() => this.collection.insertOne(stored));
    if (events.length > 0) this.context.outboxHints.announce(name, events, events);
    if (lease) {
      this.context.outboxHints.offer({
        collection: name,
        tenantId: this.tenantId,
        id: body.id as string,
        messages: events,
        leasedUntil: lease.until,
        claimId: lease.claimId,
      });
    } else if (events.length > 0) this.context.writtenOutboxes.mark(name);
    return body as unknown as T;
  }

  async findById(id: string): Promise<T | null> {
    if (typeof id !== 'string' || id === '') return null;
    const doc = await this.context.run(() =>
      this.collection.findOne({ _id: tenantKey(this.tenantId, id), tenantId: this.tenantId } as Document, {
        projection: PUBLIC_PROJECTION,
      }),
    );
    return doc ? publicDocument<T>(doc) : null;
  }

  async findByIds(ids: readonly string[]): Promise<T[]> {
    const keys = [...new Set(ids)].filter((id) => typeof id === 'string' && id !== '');
    if (keys.length === 0) return [];
    const docs = await this.context.run(() =>
      this.collection
        .find(
          {
            _id: { $in: keys.map((id) => tenantKey(this.tenantId, id)) },
            tenantId: this.tenantId,
          } as Document,
          {
            projection: PUBLIC_PROJECTION,
          },
        )
        .toArray(),
    );
    return docs.map((doc) => publicDocument<T>(doc));
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    validateTenantFilter(filter);
    if (options.sort) validateSort(options.sort);
    validatePaging(options);
    const sort =
      options.sort && Object.keys(options.sort).length > 0 ? { ...options.sort, _id: 1 as const } : undefined;
    const docs = await this.context.run(() =>
      this.collection
        .find(this.scoped(filter), {
          projection: PUBLIC_PROJECTION,
          ...(sort ? { sort } : {}),
          ...(options.skip ? { skip: options.skip } : {}),
          ...(options.limit ? { limit: options.limit } : {}),
        })
        .toArray(),
    );
    return docs.map((doc) => publicDocument<T>(doc));
  }

  async findOne(filter: Filter, options: { sort?: Sort } = {}): Promise<T | null> {
    const [first] = await this.find(filter, { sort: options.sort, limit: 1 });
    return first ?? null;
  }

  async count(filter: Filter = {}): Promise<number> {
    validateTenantFilter(filter);
    return await this.context.run(() => this.collection.countDocuments(this.scoped(filter)));
  }

  async group(filter: Filter, spec: GroupSpec): Promise<Group[]> {
    validateTenantFilter(filter);
    validateGroupSpec(spec);
    const rows = await this.context.run(() =>
      this.collection.aggregate([{ $match: this.scoped(filter) }, mongoGroupStage(spec)]).toArray(),
    );
    return fromMongoGroups(rows, spec);
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    validateTenantFilter(filter);
    validateUpdate(update, PROTECTED_FIELDS, ['id']);
    const events = prepareEvents(options.events);
    const upsert = options.upsert === true;
    const mongoUpdate = this.mongoUpdate(filter, update, events, upsert);
    if (Object.keys(mongoUpdate).length === 0) return await this.findOne(filter);
    const name = this.collection.collectionName;
    const hints = this.context.outboxHints;
    // A record whose hint still waits for this process's relay: the update returns its outbox for the hint.
    const hinted =
      events.length > 0 && typeof filter.id === 'string' && hints.isWaiting(name, this.tenantId, filter.id);
    // Any other record written with events: the update returns its outbox and lease, to hand it over unless held.
    const offered = events.length > 0 && !hinted && hints.accepts(name);
    const attempt = () =>
      this.collection.findOneAndUpdate(this.scoped(filter), mongoUpdate, {
        upsert,
        returnDocument: 'after',
        projection: hinted
          ? PUBLIC_PROJECTION_WITH_OUTBOX
          : offered
            ? PUBLIC_PROJECTION_WITH_OUTBOX_AND_LEASE
            : PUBLIC_PROJECTION,
      });
    const doc = await this.context.run(async () => {
      try {
        return await attempt();
      } catch (error) {
        // Two upserts raced and the other inserted first: now the filter matches its record (as MongoDB's own
        // server-side retry would do). If it still does not, the duplicate key stands.
        if (upsert && isDuplicateKey(error)) return await attempt();
        throw error;
      }
    });
    if (doc === null) return null;
    const outbox = (doc[OUTBOX_FIELD] ?? []) as OutboxMessage[];
    if (hinted || offered) hints.announce(name, events, outbox);
    const handedOver = hinted
      ? hints.refresh(name, this.tenantId, String(doc.id), outbox)
      : offered && !isLeased(doc, Date.now());
    if (handedOver && offered) {
      hints.offer({
        collection: name,
        tenantId: this.tenantId,
        id: String(doc.id),
        messages: outbox,
        leasedUntil: null,
        claimId: null,
      });
    }
    if (events.length > 0 && !handedOver) this.context.writtenOutboxes.mark(name);
    return publicDocument<T>(doc);
  }

  async deleteOne(filter: Filter, options?: WriteOptions): Promise<boolean> {
    validateTenantFilter(filter);
    const events = prepareEvents(options?.events);
    return await this.deleteKeepingEvents(this.scoped(filter), events);
  }

  async deleteMany(filter: Filter): Promise<number> {
    validateTenantFilter(filter);
    const scoped = this.scoped(filter);
    const keys = await this.context.run(() =>
      this.collection.find(scoped, { projection: { _id: 1 } }).toArray(),
    );
    if (keys.length === 0) return 0;
    const ids = keys.map((doc) => doc._id);
    // Records without pending events go in one command; the others (and any that got an event meanwhile) one by one.
    const bulk = await this.context.run(() =>
      this.collection.deleteMany({ ...scoped, _id: { $in: ids }, [OUTBOX_AT_FIELD]: { $exists: false } }),
    );
    let deleted = bulk.deletedCount;
    const left = await this.context.run(() =>
      this.collection.find({ ...scoped, _id: { $in: ids } }, { projection: { _id: 1 } }).toArray(),
    );
    for (const doc of left) if (await this.deleteKeepingEvents({ ...scoped, _id: doc._id }, [])) deleted++;
    return deleted;
  }

  /**
   * Deletes the first record matching `scoped` without dropping an event: its pending events (plus `events`) are
   * first copied to a tombstone in the deleted-outbox collection, then the record is deleted only if its outbox
   * holds nothing but what was copied (events the relay acknowledged meanwhile may be published once more:
   * at-least-once). If an event arrived in between, the tombstone is withdrawn and the delete tried again. A
   * crash between the two steps leaves both: the events are published twice, never lost.
   */
  private async deleteKeepingEvents(scoped: Document, events: OutboxMessage[]): Promise<boolean> {
    const tombstones = this.context.db.collection(deletedOutboxCollection(this.collection.collectionName));
    for (let attempt = 0; attempt < MAX_DELETE_ATTEMPTS; attempt++) {
      const doc = await this.context.run(() =>
        this.collection.findOne(scoped, {
          projection: { _id: 1, id: 1, [OUTBOX_FIELD]: 1, [OUTBOX_AT_FIELD]: 1 },
        }),
      );
      if (!doc) return false;
      const pending = (doc[OUTBOX_FIELD] ?? []) as OutboxMessage[];
      const outbox = [...pending, ...events];
      let tombstoneKey: string | null = null;
      if (outbox.length > 0) {
        const id = tombstoneId(String(doc.id));
        tombstoneKey = tenantKey(this.tenantId, id);
        const tombstone: Document = {
          _id: tombstoneKey,
          tenantId: this.tenantId,
          id,
          deletedId: doc.id,
          [OUTBOX_FIELD]: outbox,
          [OUTBOX_AT_FIELD]: (doc[OUTBOX_AT_FIELD] as string | undefined) ?? new Date().toISOString(),
        };
        await this.context.run(() => tombstones.insertOne(tombstone));
      }
      const copied = pending.map((message) => message.id);
      const result = await this.context.run(() =>
        this.collection.deleteOne({
          ...scoped,
          _id: doc._id,
          [OUTBOX_FIELD]: { $not: { $elemMatch: { id: { $nin: copied } } } },
        }),
      );
      if (result.deletedCount === 1) {
        if (tombstoneKey) this.context.writtenOutboxes.mark(tombstones.collectionName);
        return true;
      }
      if (tombstoneKey) await this.context.run(() => tombstones.deleteOne({ _id: tombstoneKey } as Document));
    }
    throw new StoreUnavailableError({
      cause: new Error(`record kept receiving events while being deleted (${MAX_DELETE_ATTEMPTS} attempts)`),
    });
  }

  /** The caller's filter within the tenant (a caller's own `tenantId` condition is kept, so it can only narrow). */
  private scoped(filter: Filter): Document {
    if (Object.hasOwn(filter, 'tenantId')) return { $and: [filter], tenantId: this.tenantId };
    return { ...filter, tenantId: this.tenantId };
  }

  /**
   * The caller's update plus the outbox (`$push` the events, `$min` the pending-since time) and, for an
   * upsert, the `_id` (and `id` unless the filter seeds it) of the record it may create.
   */
  private mongoUpdate(
    filter: Filter,
    update: Update,
    events: OutboxMessage[],
    upsert: boolean,
  ): UpdateFilter<Document> {
    const result: Record<string, JsonObject> = {};
    for (const [operator, fields] of Object.entries(update) as Array<[string, JsonObject]>) {
      if (Object.keys(fields).length > 0) result[operator] = { ...fields };
    }
    if (events.length > 0) {
      result.$push = { ...result.$push, [OUTBOX_FIELD]: { $each: events } };
      result.$min = { [OUTBOX_AT_FIELD]: new Date().toISOString() };
    }
    if (upsert) {
      const id = upsertId(filter, update) ?? randomUUID();
      const onInsert: JsonObject = { ...result.$setOnInsert, _id: tenantKey(this.tenantId, id) };
      if (upsertSeed(filter).id === undefined) onInsert.id = id;
      result.$setOnInsert = onInsert;
    }
    return result as UpdateFilter<Document>;
  }
}

/** Whether a relay holds the stored record at `now` (its lease has not run out). */
function isLeased(doc: Document, now: number): boolean {
  const lease = doc[OUTBOX_LEASE_FIELD] as unknown;
  return typeof lease === 'number' && lease > now;
}
