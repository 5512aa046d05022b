import type { TenantId } from '@coperto/auth';

/**
 * The document-store contract shared by the MongoDB adapter and the embedded adapter. Both pass one contract
 * suite (`describeDocumentStore` in ./contract.ts). Design rules (docs/testing.md):
 * - tenancy is structural: records are reached only through `forTenant(tenantId)`, which adds `tenantId` to
 *   every filter and insert; ids are tenant-scoped (the same id in two tenants is two records);
 * - no transactions: every write is one atomic single-document operation;
 * - documents are plain JSON (strings, finite numbers, booleans, null, arrays, objects). Timestamps are
 *   ISO-8601 UTC strings from `Date.prototype.toISOString()`, so string order is time order;
 * - the outbox: a write may carry events, stored in the same document as the record (so both happen or
 *   neither does); a relay (in @coperto/bus) publishes and acknowledges them.
 */

/** Every stored record has a string `id`, unique within its tenant and collection. */
export interface Identified {
  id: string;
}

/**
 * Filter: a subset of MongoDB's query language, the same on both adapters.
 * - `{ field: value }` equality (dotted paths reach into objects; on an array field, matches if any element equals)
 * - operators per field: `$eq $ne $in $nin $gt $gte $lt $lte $exists $elemMatch $size`, and `$not` (of operators)
 * - top level: `$and: Filter[]`, `$or: Filter[]`
 * Comparison operators compare numbers with numbers and strings with strings (never across types).
 * Anything else (`$regex`, `$where`, `_id`, internal `_outbox…` fields) is a TypeError on both adapters.
 */
export type Filter = Record<string, unknown>;

/**
 * Update: `$set`, `$unset` (value ignored), `$inc`, `$push` (value or `{ $each: [...] }`), `$pull`
 * (value or a Filter applied to array elements), `$setOnInsert` (upsert only). Dotted paths allowed.
 */
export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, unknown>;
  $inc?: Record<string, number>;
  $push?: Record<string, unknown>;
  $pull?: Record<string, unknown>;
  $setOnInsert?: Record<string, unknown>;
}

export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

/** An event waiting in a record's outbox. `body` is the JSON the relay publishes on `subject`. */
export interface OutboxMessage {
  id: string;
  subject: string;
  body: unknown;
}

export interface WriteOptions {
  /** Events stored atomically with this write, published later by the outbox relay. */
  events?: readonly OutboxMessage[];
}

export interface UpdateOptions extends WriteOptions {
  /** Insert when nothing matches (the filter's equality fields and `$setOnInsert` seed the new record). */
  upsert?: boolean;
}

export interface IndexSpec {
  /** Index name (stable: used to report which unique field was taken). */
  name: string;
  /** Fields in order; the store puts `tenantId` first itself. */
  fields: Record<string, 1 | -1>;
  unique?: boolean;
}

/** What `group` counts: the matching records grouped by the values of some fields, with sums of others. */
export interface GroupSpec {
  /** Top-level fields whose values make a group's key (a missing field groups with null). */
  by: readonly string[];
  /** Top-level fields summed over each group (a value that is not a number adds 0, as MongoDB's `$sum`). */
  sum: readonly string[];
}

/** One group of `group`'s answer. */
export interface Group {
  /** The value of each `by` field (null when missing). */
  key: Record<string, unknown>;
  /** How many records the group has. */
  count: number;
  /** The sum of each `sum` field over the group's records. */
  sums: Record<string, number>;
}

/** The records of one collection of one tenant. All methods add the tenant to what they do. */
export interface TenantCollection<T extends Identified> {
  /** Throws DuplicateKeyError when the id or a unique index is taken. */
  insertOne(doc: T, options?: WriteOptions): Promise<T>;
  findById(id: string): Promise<T | null>;
  /** Records for the ids that exist, in no particular order (one query whatever the number of ids). */
  findByIds(ids: readonly string[]): Promise<T[]>;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  findOne(filter: Filter, options?: { sort?: Sort }): Promise<T | null>;
  count(filter?: Filter): Promise<number>;
  /**
   * The matching records grouped by the values of `spec.by`, each group with how many records and the sums of
   * `spec.sum` (MongoDB: one `$match`/`$group` aggregation; no record leaves the store), in no particular order.
   * Fields must be top-level caller fields (TypeError otherwise).
   */
  group(filter: Filter, spec: GroupSpec): Promise<Group[]>;
  /**
   * Atomically updates the first record matching `filter` and returns it as it is after the update, or null
   * when nothing matched (and no upsert). The conditional update is the primitive for locks and
   * compare-and-set on a `version` field. Throws DuplicateKeyError if the update/upsert breaks a unique index.
   */
  findOneAndUpdate(filter: Filter, update: Update, options?: UpdateOptions): Promise<T | null>;
  /**
   * Deletes the first matching record; true when one was deleted. Its pending events are never dropped: they
   * stay in the outbox (with `events`, the delete's own) until the relay publishes them, hidden from reads.
   */
  deleteOne(filter: Filter, options?: WriteOptions): Promise<boolean>;
  /** Deletes every matching record (their pending events stay in the outbox, as with `deleteOne`). */
  deleteMany(filter: Filter): Promise<number>;
}

export interface TenantStore {
  readonly tenantId: TenantId;
  collection<T extends Identified>(name: string): TenantCollection<T>;
}

/** A record whose outbox holds events, as seen by the relay (system code, across tenants). */
export interface PendingOutbox {
  collection: string;
  tenantId: TenantId;
  id: string;
  messages: OutboxMessage[];
}

export interface ClaimOptions {
  /**
   * The claim follows writes of this process (the relay was kicked): a store may then read only the collections
   * this process wrote events to since it last read them, plus any it has not read for a while (MongoDB: a read
   * per collection is a store command). Without it every collection is read.
   */
  afterWrites?: boolean;
}

/** Events of one claimed record that the bus took. */
export interface OutboxAcknowledgement {
  pending: PendingOutbox;
  messageIds: readonly string[];
}

/** The relay's narrow cross-tenant view: it can read and clear outboxes, nothing else. */
export interface OutboxSource {
  /**
   * Claims up to `limit` records with pending events that no other relay claimed in the last `leaseMs`
   * (so several instances share the work), returning their events in write order.
   */
  claimPending(limit: number, leaseMs: number, options?: ClaimOptions): Promise<PendingOutbox[]>;
  /**
   * For each acknowledgement, removes the published events from the record's outbox (others added meanwhile
   * stay). When they are all of `pending.messages` the claim is released (events added meanwhile can be claimed
   * at once); after a partial acknowledgement the claim holds until its lease runs out. A relay acknowledges a
   * whole round at once: on MongoDB the common case of the whole round is one store command.
   *
   * Resolves to true when a record whose claim it released holds events written while it was claimed (a claim
   * made meanwhile skipped them, the record being leased): they are claimable now, and the relay should claim
   * again at once (a claim after writes finds them) rather than at its next poll. On MongoDB this is known of
   * this process's own writes; another process's write to a leased record is found within `outboxQuietReadMs`.
   */
  acknowledge(acks: readonly OutboxAcknowledgement[]): Promise<boolean>;
  /** How many records have pending events (for health: queueLength). */
  countPending(): Promise<number>;
  /**
   * `listener` gets the events of each write this process makes to these collections that leaves its record with
   * nothing else pending (every earlier event of the record acknowledged by the bus), right after the write: they
   * may be sent ahead of the claim without overtaking an event of their record. They stay in the outbox and are
   * claimed and acknowledged as any other (MongoDB only; the embedded store's claim reads no other process's work).
   */
  onAnnounce?(listener: (messages: readonly OutboxMessage[]) => void): void;
}

export interface StoreInfo {
  kind: 'mongo' | 'embedded';
  /** MongoDB: the database name; embedded: the data directory. */
  database: string;
  /** MongoDB: connections the pool holds now (idle and in use). */
  poolSize?: number;
  /** MongoDB: connections an operation can still get without waiting (maxPoolSize minus those in use). */
  availableConnections?: number;
}

export interface DocumentStore {
  forTenant(tenantId: TenantId): TenantStore;
  /** Creates the indexes (idempotent). Unique indexes are scoped per tenant. */
  ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void>;
  /**
   * Drops these indexes of the collection where they exist (idempotent; MongoDB: by name): an index an earlier
   * version defined and this one no longer uses.
   */
  dropIndexes(collection: string, names: readonly string[]): Promise<void>;
  outbox(collections: readonly string[]): OutboxSource;
  /** Resolves when the store answers (MongoDB: `ping`), rejects otherwise. Bounded by `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  info(): StoreInfo;
  close(): Promise<void>;
}
