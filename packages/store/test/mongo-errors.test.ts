import { MongoBulkWriteError, MongoNetworkError, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { DuplicateKeyError, StoreUnavailableError } from '../src/errors.js';
import { toStoreError } from '../src/mongo-errors.js';

const bulkResult = {} as ConstructorParameters<typeof MongoBulkWriteError>[1];

describe('toStoreError', () => {
  it('maps a connection closed under a bulk write to StoreUnavailableError (the relay acknowledging while MongoDB was killed, 2026-11-25)', () => {
    const closed = new MongoBulkWriteError(
      new MongoNetworkError('connection 14 to 127.0.0.1 closed'),
      bulkResult,
    );
    expect(toStoreError(closed)).toBeInstanceOf(StoreUnavailableError);
    const reset = new MongoBulkWriteError(new MongoNetworkError('read ECONNRESET'), bulkResult);
    expect(toStoreError(reset)).toBeInstanceOf(StoreUnavailableError);
  });

  it("keeps a bulk write's own refusals: a duplicate key names its index, another write error stays as it is", () => {
    const duplicate = new MongoBulkWriteError(
      { message: 'E11000 duplicate key error index: codice dup key', code: 11000, writeErrors: [] },
      bulkResult,
    );
    const mapped = toStoreError(duplicate);
    expect(mapped).toBeInstanceOf(DuplicateKeyError);
    expect((mapped as DuplicateKeyError).index).toBe('codice');
    const refused = new MongoBulkWriteError(
      { message: 'Cannot apply $inc', code: 14, writeErrors: [] },
      bulkResult,
    );
    expect(toStoreError(refused)).toBe(refused);
  });

  it('maps a plain network error, and leaves a server refusal as it is', () => {
    expect(toStoreError(new MongoNetworkError('closed'))).toBeInstanceOf(StoreUnavailableError);
    const refusal = new MongoServerError({ message: 'bad', code: 2 });
    expect(toStoreError(refusal)).toBe(refusal);
  });
});
