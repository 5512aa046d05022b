import type { BatchItemResult as BatchItemResultRecord } from '../batch-record.js';

export const BatchItemResult = {
  prenotazione: (result: BatchItemResultRecord) =>
    result.id ? { __typename: 'Prenotazione', id: result.id } : null,
};
