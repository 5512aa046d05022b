export type * from './types.js';
export { DuplicateKeyError, StoreUnavailableError } from './errors.js';
export { openEmbeddedStore, type EmbeddedStoreOptions } from './embedded-store.js';
export { StoreLockedError } from './directory-lock.js';
export { connectMongoStore } from './connect-mongo-store.js';
export type { MongoStoreOptions } from './mongo-store.js';
