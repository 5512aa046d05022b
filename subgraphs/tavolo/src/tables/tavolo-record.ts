import type { TableStatus } from '../generated/resolvers-types.js';
import type { TableGeometry } from './geometry.js';

/** Table statuses (schema.graphql's enum TableStatus): any of them can follow any other. */
export type { TableStatus } from '../generated/resolvers-types.js';

export interface LockRecord {
  deviceId: string;
  operatorName: string | null;
  acquiredAt: string;
  expiresAt: string;
  ttl: number;
}

/**
 * A table as stored in the `tavoli` collection. The floor-plan geometry is optional: records written before
 * it existed have none (geometryOf fills in the defaults).
 */
export interface TavoloRecord extends Partial<TableGeometry> {
  id: string;
  nome: string;
  capacita: number;
  stato: TableStatus;
  salaId: string | null;
  attivo: boolean;
  posizione: string | null;
  orderId: string | null;
  pax: number | null;
  totalAmount: number | null;
  lock: LockRecord | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** A lock's ttl in seconds: LockInput.ttl, documented in schema.graphql and the REST facade from these. */
export const LOCK_TTL_SECONDS = { min: 1, max: 3600, default: 300 } as const;

/** An expired lock counts as no lock. */
export function activeLock(tavolo: Pick<TavoloRecord, 'lock'>, now: Date): LockRecord | null {
  return tavolo.lock && tavolo.lock.expiresAt > now.toISOString() ? tavolo.lock : null;
}

/**
 * Store filter matching a table that `deviceId` may write: no lock, an expired lock, or its own lock.
 * The store applies it atomically with the write, so a lock taken meanwhile is never overwritten.
 */
export function writableBy(deviceId: string, now: Date): Record<string, unknown> {
  return {
    $or: [{ lock: null }, { 'lock.expiresAt': { $lte: now.toISOString() } }, { 'lock.deviceId': deviceId }],
  };
}

/** The table as the API shows it: the lock only while it is active. */
export function withActiveLock(tavolo: TavoloRecord, now: Date): TavoloRecord {
  return tavolo.lock && !activeLock(tavolo, now) ? { ...tavolo, lock: null } : tavolo;
}
