import { tagged } from '../rest-route.js';

const RULES =
  "`tableIds`: 2..8 distinct active tables of one room; `capacitaMin|minCovers` (default 1) <= `capacitaMax|maxCovers` <= the sum of the tables' seats. English wins when both names are sent.";

/** Table combinations (docs/seating.md): any staff member reads, administrators write. */
export const combinazioniRoutes = tagged('Combinazioni', [
  {
    method: 'GET',
    path: '/api/combinazioni',
    operation: 'ListCombinazioni',
    docs: {
      summary: 'List the table combinations',
      query: {},
    },
    field: 'combinazioni',
  },
  {
    method: 'POST',
    path: '/api/combinazioni',
    operation: 'CreateCombinazione',
    docs: {
      summary: 'Join tables into a combination (administrator)',
      description: RULES,
      body: { into: 'input' },
      errors: ['FORBIDDEN'],
      example: { name: 'T1+T2', tableIds: ['<table id>', '<table id>'], maxCovers: 7 },
    },
    field: 'createCombinazione',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/combinazioni/:id',
    operation: 'GetCombinazione',
    docs: { summary: 'Read a table combination' },
    field: 'combinazione',
    notFound: 'Combinazione',
  },
  {
    method: 'PATCH',
    path: '/api/combinazioni/:id',
    operation: 'UpdateCombinazione',
    docs: {
      summary: 'Change a table combination (administrator)',
      description: `Only the fields sent change; the result is checked whole. ${RULES}`,
      body: { into: 'input' },
      errors: ['FORBIDDEN'],
      example: { maxCovers: 6 },
    },
    field: 'updateCombinazione',
  },
  {
    method: 'DELETE',
    path: '/api/combinazioni/:id',
    operation: 'DeleteCombinazione',
    docs: {
      summary: 'Delete a table combination (administrator)',
      errors: ['FORBIDDEN'],
    },
    field: 'deleteCombinazione',
  },
]);
