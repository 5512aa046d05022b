import { randomUUID } from 'node:crypto';
import { validateFilter } from './filter-validation.js';
import { cloneJson, isPlainObject, type JsonObject } from './json-values.js';
import type { Filter, Identified, OutboxMessage } from './types.js';

/**
 * How a record is stored, the same on both adapters: the caller's fields plus `tenantId` and, while events
 * wait for the relay, `_outbox` (the events in write order), `_outboxAt` (ISO time the outbox became non-empty)
 * and `_outboxLease` (epoch ms until which a relay holds it). MongoDB adds `_id` = `tenantKey(tenantId, id)`.
 * None of these reach callers.
 */
export const OUTBOX_FIELD = '_outbox';
export const OUTBOX_AT_FIELD = '_outboxAt';
export const OUTBOX_LEASE_FIELD = '_outboxLease';
/** Which claim holds the lease (MongoDB adapter: a batch claim finds its records by it). */
export const OUTBOX_CLAIM_FIELD = '_outboxClaim';
const RESERVED_FIELDS: readonly string[] = [
  '_id',
  'tenantId',
  OUTBOX_FIELD,
  OUTBOX_AT_FIELD,
  OUTBOX_LEASE_FIELD,
  OUTBOX_CLAIM_FIELD,
];
/** Whether a top-level field is one of the store's own (`_id`, `tenantId`, the outbox's). */
export function isReservedField(field: string): boolean {
  return RESERVED_FIELDS.includes(field);
}
/** Fields an update may not change (`id` may only be given by an upsert's `$setOnInsert`). */
export const PROTECTED_FIELDS: readonly string[] = [...RESERVED_FIELDS, 'id'];

/** Validates and copies a document to insert: a plain JSON object with a non-empty string id, no reserved field. */
export function prepareNewDocument(doc: Identified): JsonObject {
  if (!isPlainObject(doc)) throw new TypeError('document must be a plain object');
  assertId(doc.id);
  for (const field of RESERVED_FIELDS) {
    if (Object.hasOwn(doc, field)) throw new TypeError(`document may not set the reserved field ${field}`);
  }
  return cloneJson(doc as unknown as JsonObject, 'document');
}

function assertId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id === '') throw new TypeError('id must be a non-empty string');
}

/** The caller's view of a stored document: internal fields removed (shallow; no copy of nested values). */
export function publicDocument<T>(stored: JsonObject): T {
  const view: JsonObject = {};
  for (const [key, value] of Object.entries(stored)) {
    if (!RESERVED_FIELDS.includes(key)) view[key] = value;
  }
  return view as T;
}

/** Validates and copies the events of a write: JSON bodies, non-empty string ids and subjects, ids unique. */
export function prepareEvents(events: readonly OutboxMessage[] | undefined): OutboxMessage[] {
  if (events === undefined) return [];
  if (!Array.isArray(events)) throw new TypeError('events must be an array');
  const seen = new Set<string>();
  return events.map((event, index) => {
    if (!isPlainObject(event)) throw new TypeError(`events.${index} must be an object`);
    const { id, subject, body } = event as unknown as JsonObject;
    if (typeof id !== 'string' || id === '')
      throw new TypeError(`events.${index}.id must be a non-empty string`);
    if (typeof subject !== 'string' || subject === '') {
      throw new TypeError(`events.${index}.subject must be a non-empty string`);
    }
    if (seen.has(id)) throw new TypeError(`events.${index}.id ${id} is repeated`);
    seen.add(id);
    return { id, subject, body: cloneJson(body === undefined ? null : body, `events.${index}.body`) };
  });
}

/**
 * MongoDB `_id` of a record: `<tenant>:<id>`, with `%` and `:` in the tenant escaped so that no two
 * (tenant, id) pairs share an `_id`.
 */
export function tenantKey(tenantId: string, id: string): string {
  return `${tenantId.replaceAll('%', '%25').replaceAll(':', '%3A')}:${id}`;
}

/** Throws a TypeError for a collection name MongoDB would refuse or treat specially. */
export function assertCollectionName(name: string): void {
  if (
    typeof name !== 'string' ||
    name === '' ||
    name.includes('$') ||
    name.includes('\0') ||
    name.startsWith('system.')
  ) {
    throw new TypeError(`Invalid collection name ${JSON.stringify(name)}`);
  }
}

/**
 * Validates a caller's filter: the documented subset (TypeError otherwise) and no internal field (`_id`,
 * `_outbox…`), which exist on one adapter only. Filtering on `tenantId` is allowed and pointless: the store
 * adds the caller's own tenant to every filter.
 */
export function validateTenantFilter(filter: unknown): asserts filter is Filter {
  validateFilter(filter);
  assertNoInternalPaths(filter as Filter);
}

function assertNoInternalPaths(filter: Filter): void {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      for (const clause of condition as Filter[]) assertNoInternalPaths(clause);
    } else if (key.split('.')[0] !== 'tenantId' && RESERVED_FIELDS.includes(key.split('.')[0]!)) {
      throw new TypeError(`filter may not use the internal field ${key}`);
    }
  }
}

/**
 * Deleting a record never drops its pending events: they move, with the delete's own events, to a tombstone in
 * the collection `deletedOutboxCollection(name)`, which the relay reads like any other and which is purged
 * record by record as the relay acknowledges them. Tombstones hold no caller fields, so they never take an id or
 * a unique value of the collection they came from.
 */
const DELETED_OUTBOX_SUFFIX = '.deleted-outbox';

export function deletedOutboxCollection(name: string): string {
  return `${name}${DELETED_OUTBOX_SUFFIX}`;
}

export function isDeletedOutboxCollection(name: string): boolean {
  return name.endsWith(DELETED_OUTBOX_SUFFIX);
}

/** The collections a relay reads for `collections`: each, then the tombstones of its deleted records. */
export function withDeletedOutboxes(collections: readonly string[]): string[] {
  return [...new Set(collections)].flatMap((name) => [name, deletedOutboxCollection(name)]);
}

/** Id of a deleted record's tombstone (one per deletion: a record re-created and deleted again gets another). */
export function tombstoneId(deletedId: string): string {
  return `${deletedId}~${randomUUID()}`;
}
