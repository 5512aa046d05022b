import type { MongoStoreOptions } from './mongo-store.js';
import type { DocumentStore } from './types.js';

/**
 * Connects to MongoDB, loading the driver on the first call: a process that never connects (embedded mode) never
 * loads it. The driver and BSON's 17 MiB serialisation buffer, allocated when `bson` loads, cost ≈ 25 MB of RSS.
 */
export async function connectMongoStore(options: MongoStoreOptions): Promise<DocumentStore> {
  const adapter = await import('./mongo-store.js');
  return adapter.connectMongoStore(options);
}
