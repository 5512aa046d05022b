import type { BatchUploadRecord } from '../batch-record.js';

export const BatchUpload = {
  batchId: (batch: BatchUploadRecord) => batch.id,
};
