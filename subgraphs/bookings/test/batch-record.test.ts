import { describe, expect, it } from 'vitest';
import { AppError, ValidationError } from '@coperto/errors';
import { countResults, type BatchItemResult } from '../src/batch-record.js';
import { itemError } from '../src/item-importer.js';

const result = (index: number, status: BatchItemResult['status']): BatchItemResult => ({
  index,
  status,
  id: status === 'failed' ? null : `p${index}`,
  codice: status === 'failed' ? null : 'ABCDEF',
  externalId: null,
  error: null,
});

describe('batch results', () => {
  it('counts created, failed and duplicate items', () => {
    const results = [result(0, 'created'), result(1, 'failed'), result(2, 'duplicate'), result(3, 'created')];
    expect(countResults(results)).toEqual({ total: 4, created: 2, failed: 1, duplicates: 1 });
    expect(countResults([])).toEqual({ total: 0, created: 0, failed: 0, duplicates: 0 });
  });

  it('keeps the code, message and details of a coded error for the item', () => {
    const error = new ValidationError([{ field: 'covers', message: 'is required' }]);
    expect(itemError(error)).toEqual({
      code: 'VALIDATION_FAILED',
      message: error.message,
      details: { fields: [{ field: 'covers', message: 'is required' }] },
    });
    expect(itemError(new AppError('TABLE_UNAVAILABLE', 'busy'))).toEqual({
      code: 'TABLE_UNAVAILABLE',
      message: 'busy',
      details: null,
    });
  });

  it('reports anything else as INTERNAL without its text', () => {
    expect(itemError(new Error('connection string mongodb://secret'))).toEqual({
      code: 'INTERNAL',
      message: 'Internal server error',
      details: null,
    });
  });
});
