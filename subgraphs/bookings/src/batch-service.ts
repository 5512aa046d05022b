import { randomUUID } from 'node:crypto';
import type { Viewer } from '@coperto/auth';
import { PayloadTooLargeError, ValidationError } from '@coperto/errors';
import type { SubgraphClient } from '@coperto/server-kit';
import { BATCH_CONCURRENCY, countResults, MAX_BATCH_ITEMS, type BatchUploadRecord } from './batch-record.js';
import type { BatchStore } from './batch-store.js';
import { mapWithConcurrency } from '@coperto/async';
import { ItemImporter } from './item-importer.js';

/**
 * The legacy batch upload: each item is created as a booking by prenotazione (a few at a time, results in
 * input order), one bad item never stops the others, and the outcome is kept as a batch record.
 */
export class BatchService {
  constructor(
    private readonly deps: { store: BatchStore; viewer: Viewer; subgraphs: SubgraphClient; now: () => Date },
  ) {}

  get(id: string): Promise<BatchUploadRecord | null> {
    return this.deps.store.findById(id);
  }

  async upload(items: unknown): Promise<BatchUploadRecord> {
    if (!Array.isArray(items)) throw new ValidationError([{ field: 'items', message: 'must be an array' }]);
    if (items.length > MAX_BATCH_ITEMS) throw new PayloadTooLargeError(`${MAX_BATCH_ITEMS} items`);
    const importer = new ItemImporter({
      subgraphs: this.deps.subgraphs,
      authorization: `Bearer ${this.deps.viewer.token}`,
    });
    const results = await mapWithConcurrency(items, BATCH_CONCURRENCY, (item, index) =>
      importer.import(item, index),
    );
    return this.deps.store.insert({
      id: randomUUID(),
      ...countResults(results),
      results,
      uploadedBy: this.deps.viewer.subject,
      createdAt: this.deps.now().toISOString(),
    });
  }
}
