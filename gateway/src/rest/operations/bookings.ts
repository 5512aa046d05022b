/** Operations behind the batch-upload routes (bookings subgraph). */
import { BATCH_UPLOAD_FIELDS } from '../generated/fragments.js';

export const bookingsOperations = {
  UploadBatch: `mutation UploadBatch($items: JSON!) { uploadBatch(items: $items) { ...BatchUploadFields } } ${BATCH_UPLOAD_FIELDS}`,
  GetBatchUpload: `query GetBatchUpload($id: ID!) { batchUpload(id: $id) { ...BatchUploadFields } } ${BATCH_UPLOAD_FIELDS}`,
} as const;
