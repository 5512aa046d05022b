import { tagged } from '../rest-route.js';

/** Rooms: list, read one, create, update, delete. */
export const saleRoutes = tagged('Sale', [
  {
    method: 'GET',
    path: '/api/sale',
    operation: 'ListSale',
    docs: { summary: 'List the rooms' },
    field: 'sale',
  },
  {
    method: 'POST',
    path: '/api/sale',
    operation: 'CreateSala',
    docs: {
      summary: 'Create a room',
      description: '`codice` is trimmed, upper-cased and unique per tenant.',
      body: { into: 'input' },
      errors: ['DUPLICATE'],
      example: { codice: 'TERRAZZA', descrizione: 'Terrazza', width: 800, height: 600 },
    },
    field: 'createSala',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/sale/:id',
    operation: 'GetSala',
    docs: { summary: 'Read one room' },
    field: 'sala',
    notFound: 'Sala',
  },
  {
    method: 'PATCH',
    path: '/api/sale/:id',
    operation: 'UpdateSala',
    docs: {
      summary: 'Change a room',
      body: { into: 'input' },
      errors: ['DUPLICATE'],
      example: { descrizione: 'Sala grande' },
    },
    field: 'updateSala',
  },
  {
    method: 'DELETE',
    path: '/api/sale/:id',
    operation: 'DeleteSala',
    docs: {
      summary: 'Delete a room',
      description: 'Refused (409 IN_USE) while tables use it.',
      errors: ['IN_USE'],
    },
    field: 'deleteSala',
  },
]);
