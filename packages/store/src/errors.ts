import { UnavailableError } from '@coperto/errors';

/** A unique index (or the id) is taken. `index` names the IndexSpec (or `id`). Services map it to DUPLICATE. */
export class DuplicateKeyError extends Error {
  readonly index: string;
  constructor(index: string, options?: ErrorOptions) {
    super(`Duplicate key for index ${index}`, options);
    this.name = 'DuplicateKeyError';
    this.index = index;
  }
}

/** The database did not answer; the write did not happen (or its outcome is unknown and safe to retry). */
export class StoreUnavailableError extends UnavailableError {
  constructor(options?: ErrorOptions) {
    super('Database unavailable', options);
    this.name = 'StoreUnavailableError';
  }
}
