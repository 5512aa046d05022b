import { bodyObject, pick, type RestRequest } from '../request-input.js';
import type { RestRoute } from '../route.js';

const SALA_FIELDS = ['codice', 'descrizione', 'width', 'height'];
const id = (req: RestRequest) => ({ id: req.params.id });

/** Rooms (interface.md 4.2; read-one, update, delete per decisions.md). */
export const saleRoutes: readonly RestRoute[] = [
  { method: 'GET', path: '/api/sale', operation: 'ListSale', field: 'sale', variables: () => ({}) },
  {
    method: 'POST',
    path: '/api/sale',
    operation: 'CreateSala',
    field: 'createSala',
    status: 201,
    variables: (req) => ({ input: pick(bodyObject(req), SALA_FIELDS) }),
  },
  {
    method: 'GET',
    path: '/api/sale/:id',
    operation: 'GetSala',
    field: 'sala',
    notFound: 'Sala',
    variables: id,
  },
  {
    method: 'PATCH',
    path: '/api/sale/:id',
    operation: 'UpdateSala',
    field: 'updateSala',
    variables: (req) => ({ ...id(req), input: pick(bodyObject(req), SALA_FIELDS) }),
  },
  { method: 'DELETE', path: '/api/sale/:id', operation: 'DeleteSala', field: 'deleteSala', variables: id },
];
