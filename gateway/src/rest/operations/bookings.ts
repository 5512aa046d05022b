/** Operations behind the batch-upload routes (bookings subgraph). */
const BATCH_UPLOAD_FIELDS = /* GraphQL */ `
  fragment BatchUploadFields on BatchUpload {
    batchId
    total
    created
    failed
    duplicates
    results {
      index
      status
      id
      codice
      externalId
      error {
        code
        message
        details
      }
    }
    createdAt
  }
`;

export const bookingsOperations = {
  UploadBatch: `mutation UploadBatch($items: JSON!) { uploadBatch(items: $items) { ...BatchUploadFields } } ${BATCH_UPLOAD_FIELDS}`,
  GetBatchUpload: `query GetBatchUpload($id: ID!) { batchUpload(id: $id) { ...BatchUploadFields } } ${BATCH_UPLOAD_FIELDS}`,
} as const;
