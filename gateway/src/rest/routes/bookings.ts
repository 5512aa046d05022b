import { bodyObject } from '../request-input.js';
import type { RestRoute } from '../route.js';

/** The legacy batch upload (interface.md 4.3, served by the bookings subgraph). */
export const bookingsRoutes: readonly RestRoute[] = [
  {
    method: 'POST',
    path: '/api/prenotazioni/batch',
    operation: 'UploadBatch',
    field: 'uploadBatch',
    // `items` goes through as JSON: each item is checked on its own, so one bad item cannot fail the others.
    variables: (req) => ({ items: bodyObject(req).items }),
  },
  {
    method: 'GET',
    path: '/api/prenotazioni/batch/:id',
    operation: 'GetBatchUpload',
    field: 'batchUpload',
    notFound: 'BatchUpload',
    variables: (req) => ({ id: req.params.id }),
  },
];
