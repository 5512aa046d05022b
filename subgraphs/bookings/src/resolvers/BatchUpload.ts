import type { BatchUploadResolvers } from '../generated/resolvers-types.js';

export const BatchUpload: BatchUploadResolvers = {
  batchId: (batch) => batch.id,
};
