import type { BatchItemStatus } from './generated/resolvers-types.js';

/** What became of one item of a batch (schema.graphql's enum BatchItemStatus). */
export type { BatchItemStatus } from './generated/resolvers-types.js';

export interface BatchItemError {
  code: string;
  message: string;
  details: unknown;
}

export interface BatchItemResult {
  index: number;
  status: BatchItemStatus;
  /** The booking's id and codice (null when failed). */
  id: string | null;
  codice: string | null;
  externalId: string | null;
  error: BatchItemError | null;
}

/** A batch upload as stored in the `bookings` collection (id = batchId). */
export interface BatchUploadRecord {
  id: string;
  total: number;
  created: number;
  failed: number;
  duplicates: number;
  results: BatchItemResult[];
  /** `sub` of the token that uploaded it, when the token has one. */
  uploadedBy: string | null;
  createdAt: string;
}

/** Most items a batch may carry; more is 413 PAYLOAD_TOO_LARGE. */
export const MAX_BATCH_ITEMS = 500;

/** Items created at the same time (each is a prenotazione request). */
export const BATCH_CONCURRENCY = 8;

/** The counts of a batch from its results (pure). */
export function countResults(
  results: readonly BatchItemResult[],
): Pick<BatchUploadRecord, 'total' | 'created' | 'failed' | 'duplicates'> {
  const count = (status: BatchItemStatus) => results.filter((r) => r.status === status).length;
  return {
    total: results.length,
    created: count('created'),
    failed: count('failed'),
    duplicates: count('duplicate'),
  };
}
