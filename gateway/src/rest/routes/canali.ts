import { tagged } from '../rest-route.js';

/** Booking channels (administrator only): docs/channels.md. */
export const canaliRoutes = tagged('Canali', [
  {
    method: 'GET',
    path: '/api/canali',
    operation: 'ListCanali',
    docs: {
      summary: 'List the booking channels',
      description: 'Administrator only. Oldest first; keys are never listed.',
    },
    field: 'canali',
  },
  {
    method: 'POST',
    path: '/api/canali',
    operation: 'CreateCanale',
    docs: {
      summary: 'Create a booking channel and its key',
      description:
        'Administrator only. `nome|name` required; `origini|origins`: the browser origins (`https://host[:port]`) ' +
        "of the channel's pages. The answer carries the channel's key (`chiave` = `key`) this once: it is not " +
        'stored and never shown again. English names win over Italian ones.',
      body: { into: 'input' },
      example: { name: 'Sito del ristorante', origins: ['https://www.example.it'] },
    },
    field: 'createCanale',
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/api/canali/:id',
    operation: 'DeleteCanale',
    docs: {
      summary: 'Delete a booking channel',
      description:
        "Administrator only. The channel's key is refused (401) from then on, within 5 s in every instance.",
    },
    field: 'deleteCanale',
  },
]);
