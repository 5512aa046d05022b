import { tagged } from '../rest-route.js';

/** The legacy batch upload (served by the bookings subgraph). */
export const bookingsRoutes = tagged('Prenotazioni', [
  {
    method: 'POST',
    path: '/api/prenotazioni/batch',
    operation: 'UploadBatch',
    docs: {
      summary: 'Upload bookings in a batch (up to 500)',
      description:
        "Each item is validated and created like a single booking; one bad item does not stop the others. An item's `externalId` makes re-uploads idempotent.",
      body: {},
      example: {
        items: [
          { externalId: 'pos-1', covers: 2, bookingDate: '2026-12-24T20:00:00', customerName: 'Bianchi' },
        ],
      },
      // The response names the batch `batchId` (the seed's name); without this link Schemathesis inferred one
      // from `id`, which the response does not have, and read `/batch/None` (ST302 in CI).
      links: {
        GetBatchUpload: { operation: 'GetBatchUpload', parameters: { id: '$response.body#/batchId' } },
      },
    },
    field: 'uploadBatch',
    // `items` goes through as JSON: each item is checked on its own, so one bad item cannot fail the others.
  },
  {
    method: 'GET',
    path: '/api/prenotazioni/batch/:id',
    operation: 'GetBatchUpload',
    docs: { summary: 'Read a batch upload' },
    field: 'batchUpload',
    notFound: 'BatchUpload',
  },
]);
